package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunSpecDependencyTest {

  private static TaskSpec.Builder task(String id, String group) {
    return TaskSpec.builder(id, group).command("true");
  }

  private static Dependency on(String... ids) {
    return Dependency.allSucceeded(Arrays.stream(ids).map(TaskId::of).toList());
  }

  private static RunSpec run(boolean parallel, GroupSpec... groups) {
    return new RunSpec("r", "runs/r", SchedulerConfig.DEFAULTS, List.of(groups), parallel);
  }

  private static GroupSpec group(String name, TaskSpec... tasks) {
    return new GroupSpec(name, List.of(tasks));
  }

  @Test
  void aTaskMayDependOnATaskOfItsOwnOrAnEarlierGroup() {
    RunSpec r = run(false,
        group("prep", task("a", "prep").build(), task("b", "prep").after(on("a")).build()),
        group("train", task("c", "train").after(on("a", "b")).follow(on("b")).build()));

    assertThat(r.tasks()).hasSize(3);
    assertThat(r.groupsInParallel()).isFalse();
  }

  @Test
  void theFourArgumentConstructorRunsGroupsOneAfterAnother() {
    RunSpec r = new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(group("g", task("a", "g").build())));

    assertThat(r.groupsInParallel()).isFalse();
  }

  @Test
  void anUnknownTaskIsRejectedByName() {
    assertThatThrownBy(() -> run(false, group("g", task("a", "g").after(on("nope")).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("task a depends on unknown task 'nope'");
  }

  @Test
  void anUnknownTaskInFollowIsRejectedToo() {
    assertThatThrownBy(() -> run(false, group("g", task("a", "g").follow(on("ghost")).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown task 'ghost'");
  }

  @Test
  void aTaskThatDependsOnItselfIsRejected() {
    assertThatThrownBy(() -> run(true, group("g", task("a", "g").after(on("a")).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("task a depends on itself");
  }

  @Test
  void aDependencyOnALaterGroupIsRejectedWhenGroupsRunOneAfterAnother() {
    assertThatThrownBy(() -> run(false,
        group("first", task("a", "first").after(on("b")).build()),
        group("second", task("b", "second").build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task a (group first) depends on b in the later group second")
        .hasMessageContaining("groups-in-parallel: true");
  }

  @Test
  void aDependencyOnALaterGroupIsAllowedWhenGroupsRunInParallel() {
    RunSpec r = run(true,
        group("first", task("a", "first").after(on("b")).build()),
        group("second", task("b", "second").build()));

    assertThat(r.groupsInParallel()).isTrue();
  }

  @Test
  void aCycleIsRejectedAndNamed() {
    assertThatThrownBy(() -> run(false, group("g",
        task("a", "g").after(on("b")).build(),
        task("b", "g").after(on("a")).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dependency cycle: a -> b -> a");
  }

  @Test
  void aLongerCycleAcrossGroupsInParallelIsNamedWithEveryTask() {
    assertThatThrownBy(() -> run(true,
        group("g1", task("a", "g1").after(on("b")).build(), task("x", "g1").build()),
        group("g2", task("b", "g2").follow(on("c")).build()),
        group("g3", task("c", "g3").after(on("x", "a")).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dependency cycle: a -> b -> c -> a");
  }

  @Test
  void aCycleThroughFollowIsACycleToo() {
    assertThatThrownBy(() -> run(false, group("g",
        task("a", "g").follow(on("b")).build(),
        task("b", "g").after(on("a")).build())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dependency cycle: a -> b -> a");
  }

  @Test
  void dependsOnListsAfterThenFollowWithoutRepeats() {
    TaskSpec t = task("t", "g")
        .after(new Dependency(List.of(TaskId.of("b"), TaskId.of("a")), false, true, true))
        .follow(on("a", "c"))
        .build();

    assertThat(t.dependsOn()).extracting(TaskId::value).containsExactly("b", "a", "c");
  }

  @Test
  void aTaskWithoutDependenciesDependsOnNothing() {
    TaskSpec t = task("t", "g").build();

    assertThat(t.dependsOn()).isEmpty();
    assertThat(t.after()).isEmpty();
    assertThat(t.follow()).isEmpty();
    assertThat(t.find(TaskKeys.QUEUE_TIMEOUT)).isEmpty();
    assertThat(t.find(TaskKeys.TIMEOUT)).isEmpty();
  }

  @Test
  void toBuilderKeepsDependenciesRetriesAndTimeouts() {
    TaskSpec t = task("t", "g")
        .after(on("a")).follow(on("b")).set(TaskKeys.RETRIES, 3).set(TaskKeys.RETRY_DELAY, Duration.ofSeconds(2))
        .queueTimeout(Duration.ofMinutes(1)).timeout(Duration.ofSeconds(30)).priority(4).build();

    assertThat(t.toBuilder().build()).isEqualTo(t);
  }

  @Test
  void zeroOrNegativeTimeoutsAreRejected() {
    assertThatThrownBy(() -> task("t", "g").timeout(Duration.ZERO).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeouts must be > 0");
    assertThatThrownBy(() -> task("t", "g").queueTimeout(Duration.ofSeconds(-1)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeouts must be > 0");
  }

  @Test
  void aTaskBuiltWithOnlyACommandHasNoDependenciesNorRetries() {
    TaskSpec t = TaskSpec.builder("t", "g").command("x").build();

    assertThat(t.after()).isEqualTo(Optional.empty());
    assertThat(t.retry().retries()).isZero();
  }

  @Test
  void aCopyKeepsTheGroupsItsRunCheckedAndTheSameGroupsRunOneAfterAnotherAreCheckedAgain() {
    RunSpec parallel = run(true,
        group("train", task("c", "train").after(on("a")).build()),
        group("prep", task("a", "prep").build()));

    RunSpec copy = parallel.withGpus("none").withWorkdir("elsewhere");

    assertThat(copy.groups()).isSameAs(parallel.groups());
    assertThat(copy.tasks()).isEqualTo(parallel.tasks());
    assertThat(copy).isEqualTo(new RunSpec("r", "elsewhere", SchedulerConfig.DEFAULTS, List.copyOf(parallel.groups()),
        true, "none", Reporting.NONE, AdapterSettings.NONE));
    assertThatThrownBy(() -> new RunSpec("r", "w", SchedulerConfig.DEFAULTS, parallel.groups(), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("depends on a in the later group prep");
  }
}
