package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code after}, {@code follow}, retries and timeouts in spec files: every form, and every error. */
class DependencySpecTest {

  @TempDir Path dir;

  private Path file;

  private RunSpec load(String spec) throws SpecException {
    file = SpecFiles.write(dir, "spec.yaml", spec);
    return SpecLoader.load(file, null, List.of());
  }

  private static TaskSpec task(RunSpec run, String id) {
    return run.tasks().stream().filter(t -> t.id().value().equals(id)).findFirst().orElseThrow();
  }

  private static List<String> ids(Dependency d) {
    return d.tasks().stream().map(TaskId::value).toList();
  }

  private static final String PREP_AND_TRAIN = """
      name: run
      groups:
        - name: prep
          tasks:
            - {id: prep, command: [x]}
        - name: train
          tasks:
            - id: "train-{seed}"
              matrix: {seed: [1, 2]}
              command: [x]
        - name: eval
          tasks:
      """;

  /** Task {@code eval} with {@code settings}, in a group after prep (task prep) and train (train-1, train-2). */
  private TaskSpec evalTask(String settings) throws SpecException {
    return task(load(PREP_AND_TRAIN + "      - {id: eval, command: [x], " + settings + "}\n"), "eval");
  }

  // ---- the forms ----

  @Test
  void aListMeansAllOfThemMustHaveSucceeded() throws SpecException {
    Dependency d = evalTask("after: [prep, \"train-*\"]").after().orElseThrow();

    assertThat(ids(d)).containsExactly("prep", "train-1", "train-2");
    assertThat(d.all()).isTrue();
    assertThat(d.success()).isTrue();
    assertThat(d.failure()).isFalse();
  }

  @Test
  void aSingleIdIsAListOfOne() throws SpecException {
    Dependency d = evalTask("after: prep").after().orElseThrow();

    assertThat(d).isEqualTo(Dependency.allSucceeded(List.of(TaskId.of("prep"))));
  }

  @Test
  void theMappingFormSetsTheFlags() throws SpecException {
    Dependency d = evalTask("after: {tasks: [prep], success: false, failure: true}").after().orElseThrow();

    assertThat(d).isEqualTo(new Dependency(List.of(TaskId.of("prep")), true, false, true));
  }

  @Test
  void allFalseMeansAnyOne() throws SpecException {
    Dependency d = evalTask("after: {tasks: [train-1, train-2], all: false}").after().orElseThrow();

    assertThat(d).isEqualTo(new Dependency(List.of(TaskId.of("train-1"), TaskId.of("train-2")), false, true, false));
  }

  @Test
  void theMappingFormTakesASingleIdToo() throws SpecException {
    Dependency d = evalTask("after: {tasks: prep, failure: true}").after().orElseThrow();

    assertThat(d).isEqualTo(new Dependency(List.of(TaskId.of("prep")), true, true, true));
  }

  @Test
  void followTakesTheSameForms() throws SpecException {
    TaskSpec t = evalTask("follow: [train-2], after: {tasks: [prep], failure: true}");

    assertThat(t.follow()).contains(Dependency.allSucceeded(List.of(TaskId.of("train-2"))));
    assertThat(t.after()).contains(new Dependency(List.of(TaskId.of("prep")), true, true, true));
    assertThat(t.dependsOn()).extracting(TaskId::value).containsExactly("prep", "train-2");
  }

  @Test
  void aTaskWithoutAfterOrFollowHasNoEdges() throws SpecException {
    TaskSpec t = evalTask("cpus: 1");

    assertThat(t.after()).isEmpty();
    assertThat(t.follow()).isEmpty();
  }

  // ---- globs, groups, placeholders ----

  @Test
  void globsNeverIncludeTheTaskItself() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("""
        - {id: t-1, command: [x]}
        - {id: t-2, command: [x]}
        - {id: t-3, command: [x], after: "t-*"}
        - {id: u-1, command: [x], follow: "?-1"}
        """));

    assertThat(ids(task(run, "t-3").after().orElseThrow())).containsExactly("t-1", "t-2");
    assertThat(ids(task(run, "u-1").follow().orElseThrow())).containsExactly("t-1");
  }

  @Test
  void bracketGlobsMatchOneListedCharacter() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("""
        - id: "t{n}"
          matrix: {n: [1, 2, 3, 4]}
          command: [x]
        - {id: last, command: [x], after: "t[13]"}
        """));

    assertThat(ids(task(run, "last").after().orElseThrow())).containsExactly("t1", "t3");
  }

  @Test
  void aGroupReferenceNamesEveryTaskOfTheGroupButTheTaskItself() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: prep
            tasks:
              - {id: a, command: [x]}
              - {id: b, command: [x]}
          - name: train
            tasks:
              - {id: c, command: [x], after: "group:prep"}
              - {id: d, command: [x]}
              - {id: e, command: [x], after: "group:train"}
        """);

    assertThat(ids(task(run, "c").after().orElseThrow())).containsExactly("a", "b");
    assertThat(ids(task(run, "e").after().orElseThrow())).containsExactly("c", "d");
  }

  @Test
  void placeholdersFromTheMatrixAreFilled() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: prep
            tasks:
              - id: "prep-{seed}"
                matrix: {seed: [1, 2]}
                command: [x]
          - name: train
            tasks:
              - id: "train-{lr}-{seed}"
                matrix: {lr: [0.1, 0.01], seed: [1, 2]}
                command: [x]
                after: "prep-{seed}"
                follow: {tasks: ["prep-{seed}"], failure: true}
        """);

    assertThat(ids(task(run, "train-0.1-1").after().orElseThrow())).containsExactly("prep-1");
    assertThat(ids(task(run, "train-0.01-2").after().orElseThrow())).containsExactly("prep-2");
    assertThat(ids(task(run, "train-0.01-2").follow().orElseThrow())).containsExactly("prep-2");
  }

  @Test
  void aPlaceholderInsideAGlobIsFilledBeforeMatching() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: train
            tasks:
              - id: "train-{lr}-{seed}"
                matrix: {lr: [a, b], seed: [1, 2]}
                command: [x]
          - name: eval
            tasks:
              - id: "eval-{seed}"
                matrix: {seed: [1, 2]}
                command: [x]
                after: "train-*-{seed}"
        """);

    assertThat(ids(task(run, "eval-2").after().orElseThrow())).containsExactly("train-a-2", "train-b-2");
  }

  @Test
  void theTasksOfAMatrixAfterTheSameGlobShareOneListOfItsMatches() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("""
        - {id: "m-{i}", command: [x], matrix: {i: [1, 2, 3]}}
        - {id: "r-{i}", command: [x], matrix: {i: [1, 2, 3]}, after: "m-*"}
        """));

    List<TaskId> first = task(run, "r-1").after().orElseThrow().tasks();
    assertThat(first).extracting(TaskId::value).containsExactly("m-1", "m-2", "m-3");
    assertThat(task(run, "r-3").after().orElseThrow().tasks()).isSameAs(first);
  }

  @Test
  void aGlobThatNamesTheTaskItselfLeavesOnlyThatTaskOut() throws SpecException {
    RunSpec run = load(SpecFiles.oneGroup("""
        - {id: "m-{i}", command: [x], matrix: {i: [1, 2, 3]}}
        - {id: m-all, command: [x], after: "m-*"}
        - {id: fin, command: [x], after: "m-*"}
        """));

    assertThat(ids(task(run, "m-all").after().orElseThrow())).containsExactly("m-1", "m-2", "m-3");
    assertThat(ids(task(run, "fin").after().orElseThrow())).containsExactly("m-1", "m-2", "m-3", "m-all");
  }

  @Test
  void twentyThousandTasksEachAfterTheGlobThatNamesThemAllAreRefusedNamingACycle() {
    SpecException e = catchThrowableOfType(SpecException.class, () -> load(SpecFiles.oneGroup(
        "- {id: \"t-{i}\", command: [x], after: \"t-*\", matrix: {i: ["
            + String.join(", ", java.util.stream.IntStream.range(0, 20_000).mapToObj(String::valueOf).toList())
            + "]}}")));

    assertThat(e.getMessage()).isEqualTo(file + ": groups[0].tasks[0].after: dependency cycle: t-0 -> t-1 -> t-0");
  }

  @Test
  void repeatedMatchesAreListedOnce() throws SpecException {
    Dependency d = evalTask("after: [train-1, \"train-*\", \"group:train\"]").after().orElseThrow();

    assertThat(ids(d)).containsExactly("train-1", "train-2");
  }

  @Test
  void aGroupLevelAfterAppliesToEveryTaskOfTheGroup() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: prep
            tasks:
              - {id: a, command: [x]}
          - name: train
            after: a
            retries: 2
            tasks:
              - {id: b, command: [x]}
              - {id: c, command: [x], after: b, retries: 0}
        """);

    assertThat(ids(task(run, "b").after().orElseThrow())).containsExactly("a");
    assertThat(ids(task(run, "c").after().orElseThrow())).as("the task's own value wins").containsExactly("b");
    assertThat(task(run, "b").retry().retries()).isEqualTo(2);
    assertThat(task(run, "c").retry().retries()).isZero();
  }

  @Test
  void groupsInParallelAllowsADependencyOnALaterGroup() throws SpecException {
    RunSpec run = load("""
        name: run
        groups-in-parallel: true
        groups:
          - name: first
            tasks:
              - {id: a, command: [x], after: b}
          - name: second
            tasks:
              - {id: b, command: [x]}
        """);

    assertThat(run.groupsInParallel()).isTrue();
    assertThat(ids(task(run, "a").after().orElseThrow())).containsExactly("b");
  }

  @Test
  void groupsRunOneAfterAnotherByDefault() throws SpecException {
    assertThat(load(SpecFiles.oneGroup("- {id: a, command: [x]}")).groupsInParallel()).isFalse();
    assertThat(load("name: run\ngroups-in-parallel: false\ngroups: [{name: g, tasks: [{id: a, command: [x]}]}]\n")
        .groupsInParallel()).isFalse();
  }

  // ---- retries and timeouts ----

  @Test
  void retriesAndTimeoutsAreRead() throws SpecException {
    TaskSpec t = task(load(SpecFiles.oneGroup("""
        - id: a
          command: [x]
          retries: 3
          retry-delay: 2s
          retry-backoff: 1.5
          retry-delay-max: 1m
          queue-timeout: 10m
          timeout: 90s
        """)), "a");

    assertThat(t.retry()).isEqualTo(new RetryPolicy(3, Duration.ofSeconds(2), 1.5, Duration.ofMinutes(1)));
    assertThat(t.find(TaskKeys.QUEUE_TIMEOUT)).contains(Duration.ofMinutes(10));
    assertThat(t.find(TaskKeys.TIMEOUT)).contains(Duration.ofSeconds(90));
  }

  @Test
  void withoutRetrySettingsATaskHasNoRetriesAndTheDefaultCap() throws SpecException {
    TaskSpec t = task(load(SpecFiles.oneGroup("- {id: a, command: [x], retries: 1}")), "a");

    assertThat(t.retry().retries()).isEqualTo(1);
    assertThat(t.retry().delay()).isZero();
    assertThat(t.retry().maxDelay()).isEqualTo(Duration.ofMinutes(10));
    assertThat(t.find(TaskKeys.QUEUE_TIMEOUT)).isEmpty();
    assertThat(t.find(TaskKeys.TIMEOUT)).isEmpty();
  }

  @Test
  void aGroupCanGiveItsTasksTimeouts() throws SpecException {
    RunSpec run = load("""
        name: run
        groups:
          - name: g
            timeout: 1h
            queue-timeout: 5m
            tasks:
              - {id: a, command: [x]}
              - {id: b, command: [x], timeout: 10s}
        """);

    assertThat(task(run, "a").find(TaskKeys.TIMEOUT)).contains(Duration.ofHours(1));
    assertThat(task(run, "a").find(TaskKeys.QUEUE_TIMEOUT)).contains(Duration.ofMinutes(5));
    assertThat(task(run, "b").find(TaskKeys.TIMEOUT)).contains(Duration.ofSeconds(10));
  }

  // ---- every error: file, field and rule ----

  /** One bad spec and the error it must produce. */
  record Bad(String name, String spec, String field, String phrase) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Bad task(String name, String tasks, String field, String phrase) {
    return new Bad(name, SpecFiles.oneGroup(tasks), field, phrase);
  }

  static Stream<Bad> badSpecs() {
    String a = "- {id: prep, command: [x]}\n";
    return Stream.of(
        task("unknown id with a suggestion", a + "- {id: b, command: [x], after: [prepp]}",
            "groups[0].tasks[1].after[0]", "'prepp' names no task in this run; did you mean 'prep'?"),
        task("unknown id as a single value", a + "- {id: b, command: [x], after: nothing-like-it}",
            "groups[0].tasks[1].after", "'nothing-like-it' names no task in this run;"),
        task("unknown id in the mapping form", a + "- {id: b, command: [x], after: {tasks: [prep, perp]}}",
            "groups[0].tasks[1].after.tasks[1]", "did you mean 'prep'?"),
        task("unknown id in follow", a + "- {id: b, command: [x], follow: [pre]}",
            "groups[0].tasks[1].follow[0]", "'pre' names no task in this run; did you mean 'prep'?"),
        task("self dependency", a + "- {id: b, command: [x], after: [prep, b]}",
            "groups[0].tasks[1].after[1]", "task b depends on itself"),
        task("self dependency through follow", "- {id: b, command: [x], follow: b}",
            "groups[0].tasks[0].follow", "task b depends on itself"),
        task("glob that matches nothing", a + "- {id: b, command: [x], after: \"train-*\"}",
            "groups[0].tasks[1].after", "'train-*' matches no task"),
        task("glob that matches only the task itself", a + "- {id: b-1, command: [x], after: \"b-*\"}",
            "groups[0].tasks[1].after", "'b-*' matches no task"),
        task("group that only holds the task itself", "- {id: b, command: [x], after: \"group:main\"}",
            "groups[0].tasks[0].after", "names no task other than b itself"),
        task("unknown group with a suggestion", a + "- {id: b, command: [x], after: \"group:mian\"}",
            "groups[0].tasks[1].after", "'group:mian' names no group; did you mean 'group:main'?"),
        task("cycle", "- {id: a, command: [x], after: b}\n- {id: b, command: [x], after: c}\n"
            + "- {id: c, command: [x], after: a}", "groups[0].tasks[0].after", "dependency cycle: a -> b -> c -> a"),
        task("cycle through follow", "- {id: a, command: [x], follow: b}\n- {id: b, command: [x], after: a}",
            "groups[0].tasks[0].follow", "dependency cycle: a -> b -> a"),
        new Bad("dependency on a later group", """
            name: run
            groups:
              - name: first
                tasks:
                  - {id: a, command: [x], after: b}
              - name: second
                tasks:
                  - {id: b, command: [x]}
            """, "groups[0].tasks[0].after", "task a (group first) depends on b in the later group second"),
        task("neither success nor failure", a + "- {id: b, command: [x], after: {tasks: [prep], success: false}}",
            "groups[0].tasks[1].after", "can never be met"),
        task("unknown key in the mapping form", a + "- {id: b, command: [x], after: {tasks: [prep], any: true}}",
            "groups[0].tasks[1].after.any", "unknown key 'any'"),
        task("mapping form without tasks", a + "- {id: b, command: [x], after: {all: false}}",
            "groups[0].tasks[1].after.tasks", "is required"),
        task("flag that is not a boolean", a + "- {id: b, command: [x], after: {tasks: [prep], all: maybe}}",
            "groups[0].tasks[1].after.all", "must be true or false"),
        task("empty list", a + "- {id: b, command: [x], after: []}",
            "groups[0].tasks[1].after", "must be a task id, a glob"),
        task("list item that is a mapping", a + "- {id: b, command: [x], after: [{id: prep}]}",
            "groups[0].tasks[1].after[0]", "must be a task id, a glob"),
        task("placeholder that is not a matrix variable",
            "- {id: 'p-{seed}', matrix: {seed: [1]}, command: [x]}\n"
                + "- {id: 't-{seed}', matrix: {seed: [1]}, command: [x], after: 'p-{sed}'}",
            "groups[0].tasks[1].after", "did you mean '{seed}'?"),
        new Bad("groups-in-parallel that is not a boolean",
            "name: run\ngroups-in-parallel: yes please\ngroups: [{name: g, tasks: [{id: a, command: [x]}]}]\n",
            "groups-in-parallel", "must be true or false"),
        task("negative retries", "- {id: a, command: [x], retries: -1}",
            "groups[0].tasks[0].retries", "must be a whole number >= 0"),
        task("fractional retries", "- {id: a, command: [x], retries: 1.5}",
            "groups[0].tasks[0].retries", "must be a whole number"),
        task("backoff below one", "- {id: a, command: [x], retry-backoff: 0.5}",
            "groups[0].tasks[0].retry-backoff", "must be a number from 1"),
        task("backoff that is text", "- {id: a, command: [x], retry-backoff: fast}",
            "groups[0].tasks[0].retry-backoff", "must be a number from 1"),
        task("retry delay that is not a duration", "- {id: a, command: [x], retry-delay: soon}",
            "groups[0].tasks[0].retry-delay", "'soon' is not a duration"),
        task("retry delay max that is not a duration", "- {id: a, command: [x], retry-delay-max: forever}",
            "groups[0].tasks[0].retry-delay-max", "'forever' is not a duration"),
        task("zero timeout", "- {id: a, command: [x], timeout: 0s}",
            "groups[0].tasks[0].timeout", "must be longer than 0"),
        task("zero queue-timeout", "- {id: a, command: [x], queue-timeout: 0}",
            "groups[0].tasks[0].queue-timeout", "must be longer than 0"),
        task("timeout that is not a duration", "- {id: a, command: [x], timeout: later}",
            "groups[0].tasks[0].timeout", "'later' is not a duration"),
        task("misspelt key gets a suggestion", "- {id: a, command: [x], retrys: 2}",
            "groups[0].tasks[0].retrys", "did you mean 'retries'?"),
        task("misspelt after gets a suggestion", a + "- {id: b, command: [x], afterr: prep}",
            "groups[0].tasks[1].afterr", "did you mean 'after'?"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badSpecs")
  void aBadDependencyOrRetrySettingIsReportedWithFileFieldAndRule(Bad bad) {
    Path spec = SpecFiles.write(dir, "spec.yaml", bad.spec());

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e).as("no error for %s", bad.name()).isNotNull();
    assertThat(e.file()).isEqualTo(spec.toString());
    assertThat(e.field()).isEqualTo(bad.field());
    assertThat(e.rule()).contains(bad.phrase());
    assertThat(e.getMessage()).doesNotContain("\n");
  }
}
