package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine carrying out dependencies, retries, timeouts and cancels, on a fake clock and executor. */
class EngineDependencyTest {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeExecutor executor = new FakeExecutor();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(8).totalGiB(16).availableGiB(12).utilization(0.1);
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB).build();

  private static TaskSpec.Builder t(String id, String group) {
    return TaskSpec.builder(id, group).command("work", id).memoryBytes(64 * MIB).cpus(1);
  }

  private static TaskSpec.Builder t(String id) {
    return t(id, "g");
  }

  private static List<TaskId> ids(String... ids) {
    return Arrays.stream(ids).map(TaskId::of).toList();
  }

  private static Dependency ok(String... parents) {
    return Dependency.allSucceeded(ids(parents));
  }

  private static Dependency failed(String... parents) {
    return new Dependency(ids(parents), true, false, true);
  }

  private static GroupSpec group(String name, TaskSpec.Builder... tasks) {
    return new GroupSpec(name, Arrays.stream(tasks).map(TaskSpec.Builder::build).toList());
  }

  private Engine engine(boolean parallel, GroupSpec... groups) {
    RunSpec spec = new RunSpec("r", dir.toString(), config, List.of(groups), parallel);
    running = new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE);
    return running;
  }

  private Engine engine(TaskSpec.Builder... tasks) {
    return engine(false, group("g", tasks));
  }

  private static TaskId id(String s) {
    return TaskId.of(s);
  }

  private Engine running;

  /**
   * Lets {@code d} pass the way {@link Engine#run()} experiences it: the engine decides only when a
   * message arrives, and here the only messages are its own timers (probe ticks and wake-ups), so
   * time moves from one due timer to the next and the engine drains after each. A test that called
   * {@code drain()} after {@code advance()} would make the engine decide without any message, and
   * hide a missing timer. Process exits are messages too; tests drain after each one they cause.
   */
  private void runFor(Duration d) {
    java.time.Instant target = clock.instant().plus(d);
    while (true) {
      java.time.Instant next = clock.pendingDueTimes().stream().findFirst().orElse(null);
      if (next == null || next.isAfter(target)) {
        clock.advance(Duration.between(clock.instant(), target));
        return;
      }
      clock.advance(Duration.between(clock.instant(), next));
      running.drain();
      running.drain(); // what the timer's pass caused (a fake process ended by a kill) at the same instant
    }
  }

  private static TaskState stateOf(Engine e, String task) {
    return e.state().task(id(task)).state();
  }

  private static String reason(Engine e, String task) {
    return e.state().task(id(task)).history().finalReason().orElse("");
  }

  private static TaskReport report(Engine e, String task) {
    return e.result().report().groups().stream().flatMap(g -> g.tasks().stream())
        .filter(r -> r.id().equals(task)).findFirst().orElseThrow();
  }

  // ---- cascades ----

  @Test
  void aFailureCascadesThroughTheWholeChainInOneDrain() {
    Engine e = engine(t("a"), t("b").after(ok("a")), t("c").after(ok("b")), t("d").follow(ok("c")),
        t("cleanup").after(failed("d")), t("other"));
    e.start();
    assertThat(executor.running()).containsExactly(id("a"), id("other"));

    executor.exit(id("a"), 1);
    e.drain();

    assertThat(stateOf(e, "b")).isEqualTo(TaskState.UNREACHABLE);
    assertThat(stateOf(e, "c")).isEqualTo(TaskState.UNREACHABLE);
    assertThat(stateOf(e, "d")).isEqualTo(TaskState.UNREACHABLE);
    assertThat(reason(e, "d")).isEqualTo("needs c succeeded, but c was unreachable");
    assertThat(executor.transcript()).as("the cleanup starts in the same drain")
        .endsWith("exit a 1", "launch cleanup#1");
  }

  @Test
  void theRunEndsInTheDrainWhereItsLastTaskEndedAndTheRestBecameUnreachable() throws IOException {
    Engine e = engine(t("a"), t("b").after(ok("a")), t("c").after(ok("b")));
    e.start();

    executor.exit(id("a"), 2);
    e.drain();

    assertThat(e.result()).isNotNull();
    assertThat(e.result().report().status()).isEqualTo(RunStatus.FAILED);
    assertThat(e.result().report().totals().unreachable()).isEqualTo(2);
    assertThat(report(e, "c").status()).isEqualTo(TaskStatus.UNREACHABLE);
    assertThat(report(e, "c").error()).isEqualTo("needs b succeeded, but b was unreachable");
    assertThat(report(e, "c").attempts()).isEmpty();
    JsonNode json = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
    assertThat(json.toString()).contains("\"UNREACHABLE\"");
    assertThat(clock.pendingTimers()).as("no timer left behind").isZero();
  }

  @Test
  void aCancelledParentCancelsItsDependantsInTheSameDrain() {
    Engine e = engine(t("a"), t("b").after(ok("a")), t("c").after(failed("a")));
    e.start();

    e.cancel(List.of(id("a")), "not needed");
    e.drain();

    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task).containsExactly(id("a"));
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.CANCELLED);
    assertThat(stateOf(e, "b")).isEqualTo(TaskState.CANCELLED);
    assertThat(stateOf(e, "c")).as("a cancelled task satisfies no edge, not even failure").isEqualTo(TaskState.CANCELLED);
    assertThat(reason(e, "b")).contains("a was cancelled");
    assertThat(e.result()).isNotNull();
    assertThat(e.result().report().status()).isEqualTo(RunStatus.FAILED);
  }

  @Test
  void aTaskThatCannotStartMakesItsDependantsUnreachableInTheSameStep() {
    executor.failLaunchOf(id("a"), "no such program");
    Engine e = engine(t("a"), t("b").after(ok("a")));

    e.start();

    assertThat(stateOf(e, "a")).isEqualTo(TaskState.FAILED);
    assertThat(stateOf(e, "b")).as("settled without waiting for a probe tick").isEqualTo(TaskState.UNREACHABLE);
    assertThat(e.result()).as("and the run is over").isNotNull();
  }

  @Test
  void aTaskThatCannotStartIsRetriedAtOnceWhenItHasNoRetryDelay() {
    executor.failLaunchOf(id("a"), "text file busy");
    Engine e = engine(t("a").set(TaskKeys.RETRIES, 1));

    e.start();

    assertThat(executor.transcript()).as("no probe tick needed for the retry")
        .containsExactly("launch-failed a#1", "launch a#2");
  }

  @Test
  void aTaskThatCannotStartIsRetriedAfterItsDelay() {
    executor.failLaunchOf(id("a"), "text file busy");
    Engine e = engine(t("a").set(TaskKeys.RETRIES, 1).set(TaskKeys.RETRY_DELAY, Duration.ofMillis(2500)));
    e.start();

    runFor(Duration.ofMillis(2499));
    assertThat(executor.launched(id("a"))).hasSize(1);

    runFor(Duration.ofMillis(1));
    assertThat(executor.launched(id("a"))).hasSize(2);
    assertThat(e.state().task(id("a")).history().attempts().get(1).startedAt())
        .isEqualTo(new FakeClock().instant().plusMillis(2500));
  }

  // ---- retries ----

  @Test
  void aFailedAttemptIsRetriedWhenTheFakeClockReachesTheDelay() {
    Engine e = engine(t("a").set(TaskKeys.RETRIES, 2).set(TaskKeys.RETRY_DELAY, Duration.ofSeconds(30))
        .set(TaskKeys.RETRY_BACKOFF, 2.0));
    e.start();

    executor.exit(id("a"), 1);
    e.drain();
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.READY);
    assertThat(clock.pendingDueTimes()).contains(clock.instant().plusSeconds(30));

    runFor(Duration.ofMillis(29_999));
    assertThat(executor.launched(id("a"))).hasSize(1);

    runFor(Duration.ofMillis(1));
    assertThat(executor.launched(id("a"))).hasSize(2);
    assertThat(executor.lastLaunch(id("a")).env()).containsEntry("BERTH_ATTEMPT", "2");

    executor.exit(id("a"), 1);
    e.drain();
    runFor(Duration.ofMillis(59_999));
    assertThat(executor.launched(id("a"))).as("second delay is 60s").hasSize(2);
    runFor(Duration.ofMillis(1));
    assertThat(executor.launched(id("a"))).hasSize(3);

    executor.exit(id("a"), 0);
    e.drain();
    assertThat(e.result().report().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(report(e, "a").attempts()).extracting(a -> a.outcome())
        .containsExactly("FAILED", "FAILED", "SUCCEEDED");
  }

  @Test
  void aDependantWaitsForTheRetryAndStartsWhenItSucceeds() {
    Engine e = engine(t("a").set(TaskKeys.RETRIES, 1)
        .set(TaskKeys.RETRY_DELAY, Duration.ofSeconds(5)), t("b").after(ok("a")));
    e.start();

    executor.exit(id("a"), 1);
    e.drain();
    assertThat(stateOf(e, "b")).as("a may still succeed").isEqualTo(TaskState.QUEUED);

    runFor(Duration.ofSeconds(5));
    executor.exit(id("a"), 0);
    e.drain();

    assertThat(executor.isRunning(id("b"))).isTrue();
  }

  // ---- timeouts ----

  @Test
  void anAttemptPastItsTimeoutIsTerminatedAndEndsTimedOut() {
    executor.deferTerminations();
    Engine e = engine(t("a").timeout(Duration.ofSeconds(10)), t("b").after(failed("a")));
    e.start();

    runFor(Duration.ofMillis(9_999));
    assertThat(executor.terminations()).isEmpty();

    runFor(Duration.ofMillis(1));
    assertThat(executor.terminations()).containsExactly(new FakeExecutor.Termination(id("a"), 1, 5_000));
    assertThat(stateOf(e, "a")).as("still running until it exits").isEqualTo(TaskState.RUNNING);

    runFor(Duration.ofMillis(200));
    assertThat(executor.terminations()).as("terminated once, not on every pass").hasSize(1);

    executor.deliverTerminations();
    e.drain();
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.TIMED_OUT);
    Attempt attempt = e.state().task(id("a")).history().attempts().get(0);
    assertThat(attempt.end().get().outcome()).isEqualTo(Outcome.TIMED_OUT);
    assertThat(attempt.end().get().exitCode()).isEqualTo(FakeExecutor.TERMINATED_EXIT_CODE);
    assertThat(reason(e, "a")).isEqualTo("ran longer than its timeout of 10.0s");
    assertThat(executor.isRunning(id("b"))).as("timed out satisfies failure").isTrue();
  }

  @Test
  void anAttemptKilledForItsTimeoutIsRetriedWhenItHasRetriesLeft() {
    Engine e = engine(t("a").timeout(Duration.ofSeconds(10)).set(TaskKeys.RETRIES, 1));
    e.start();

    runFor(Duration.ofSeconds(10)); // the kill; the fake process exits on the terminate

    assertThat(executor.transcript()).containsExactly("launch a#1", "terminate a", "exit a 143", "launch a#2");
    runFor(Duration.ofSeconds(10));
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.TIMED_OUT);
    assertThat(report(e, "a").attempts()).extracting(a -> a.outcome()).containsExactly("TIMED_OUT", "TIMED_OUT");
    assertThat(e.result().report().totals().timedOut()).isEqualTo(1);
  }

  @Test
  void aTaskWaitingTooLongForItsDependenciesTimesOutOnTheFakeClock() {
    Engine e = engine(t("slow"), t("b").after(ok("slow")).queueTimeout(Duration.ofSeconds(5)));
    e.start();

    runFor(Duration.ofMillis(4_999));
    assertThat(stateOf(e, "b")).isEqualTo(TaskState.QUEUED);

    runFor(Duration.ofMillis(1));
    assertThat(stateOf(e, "b")).isEqualTo(TaskState.TIMED_OUT);
    assertThat(reason(e, "b")).isEqualTo("waited 5.0s for its dependencies [queue-timeout]");
  }

  @Test
  void aTaskWaitingForResourcesTimesOutAtItsDeadlineEvenWhenThatIsBeforeTheNextProbeTick() {
    probe.cpus(1);
    Engine e = engine(t("hog"), t("b").queueTimeout(Duration.ofMillis(300)));
    e.start();
    assertThat(stateOf(e, "b")).isEqualTo(TaskState.READY);

    runFor(Duration.ofMillis(300));

    assertThat(stateOf(e, "b")).as("probe ticks are 1s apart; the deadline was at 300ms").isEqualTo(TaskState.TIMED_OUT);
  }

  // ---- cancel ----

  @Test
  void cancellingAGlobCancelsTheMatchingTasksAndTheirDependants() {
    Engine e = engine(false, group("g",
        t("train-1"), t("train-2"), t("train-3").after(ok("prep")), t("prep"),
        t("eval").after(ok("train-1", "train-2", "train-3")), t("keep")));
    e.start();
    assertThat(executor.running()).contains(id("train-1"), id("train-2"), id("prep"), id("keep"));

    e.cancelMatching(List.of("train-*"), "cancelled by berth cancel");
    e.drain();

    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task)
        .containsExactlyInAnyOrder(id("train-1"), id("train-2"));
    assertThat(stateOf(e, "train-1")).isEqualTo(TaskState.CANCELLED);
    assertThat(stateOf(e, "train-3")).as("queued behind prep").isEqualTo(TaskState.CANCELLED);
    assertThat(reason(e, "train-3")).isEqualTo("cancelled by berth cancel");
    assertThat(stateOf(e, "eval")).isEqualTo(TaskState.CANCELLED);
    assertThat(reason(e, "eval")).contains("train-1 was cancelled");
    assertThat(executor.isRunning(id("keep"))).isTrue();
    assertThat(executor.isRunning(id("prep"))).isTrue();
    assertThat(e.result()).isNull();
  }

  @Test
  void cancellingAGroupCancelsItsTasksOnly() {
    Engine e = engine(true,
        group("prep", t("p1", "prep"), t("p2", "prep")),
        group("train", t("t1", "train").after(ok("p1")), t("t2", "train")));
    e.start();

    e.cancelMatching(List.of("group:prep"), "stop prep");
    e.drain();

    assertThat(stateOf(e, "p1")).isEqualTo(TaskState.CANCELLED);
    assertThat(stateOf(e, "p2")).isEqualTo(TaskState.CANCELLED);
    assertThat(stateOf(e, "t1")).isEqualTo(TaskState.CANCELLED);
    assertThat(executor.isRunning(id("t2"))).isTrue();
  }

  @Test
  void cancellingNoPatternsCancelsTheWholeRun() {
    Engine e = engine(t("a"), t("b").after(ok("a")));
    e.start();

    e.cancelMatching(List.of(), "everything");
    e.drain();

    assertThat(e.result()).isNotNull();
    assertThat(e.result().report().status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(reason(e, "b")).isEqualTo("everything");
  }

  @Test
  void aWholeRunCancelAfterARetryWasScheduledStillEndsTheRun() {
    Engine e = engine(t("a").set(TaskKeys.RETRIES, 3).set(TaskKeys.RETRY_DELAY, Duration.ofMinutes(1)), t("b"));
    e.start();
    executor.exit(id("a"), 1);
    e.drain();
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.READY);

    e.cancel("interrupted");
    e.drain();

    assertThat(e.result()).as("the run ends without waiting for the retry delay").isNotNull();
    assertThat(e.result().report().status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.CANCELLED);
    assertThat(executor.launched(id("a"))).hasSize(1);
    assertThat(clock.pendingTimers()).as("the retry timer is gone").isZero();
    runFor(Duration.ofMinutes(5));
    assertThat(executor.launched(id("a"))).hasSize(1);
  }

  @Test
  void aWholeRunCancelWhileATimeoutKillIsUnderWayStillEndsTheRun() {
    executor.deferTerminations();
    Engine e = engine(t("a").timeout(Duration.ofSeconds(1)).set(TaskKeys.RETRIES, 5));
    e.start();
    runFor(Duration.ofSeconds(1));
    assertThat(executor.terminations()).hasSize(1);

    e.cancel("interrupted");
    e.drain();
    executor.deliverTerminations();
    e.drain();

    assertThat(e.result()).isNotNull();
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.CANCELLED);
    assertThat(executor.launched(id("a"))).as("no retry after the cancel").hasSize(1);
  }

  @Test
  void cancellingATaskWhileItsTimeoutKillIsUnderWayCancelsItInsteadOfRetryingIt() {
    executor.deferTerminations();
    Engine e = engine(t("a").timeout(Duration.ofSeconds(1)).set(TaskKeys.RETRIES, 5), t("b").after(ok("a")));
    e.start();
    runFor(Duration.ofSeconds(1));
    assertThat(executor.terminations()).hasSize(1);

    e.cancel(List.of(id("a")), "cancelled by you");
    e.drain();
    executor.deliverTerminations();
    e.drain();

    assertThat(executor.launched(id("a"))).as("the user cancelled it: no retry").hasSize(1);
    assertThat(stateOf(e, "a")).isEqualTo(TaskState.CANCELLED);
    assertThat(stateOf(e, "b")).isEqualTo(TaskState.CANCELLED);
  }

  @Test
  void cancellingUnknownOrEndedTasksDoesNothing() {
    Engine e = engine(t("a"), t("b"));
    e.start();
    executor.exit(id("a"), 0);
    e.drain();

    e.cancel(List.of(id("a"), id("ghost")), "late");
    e.cancelMatching(List.of("nothing-*", "group:none"), "late");
    e.drain();

    assertThat(stateOf(e, "a")).isEqualTo(TaskState.SUCCEEDED);
    assertThat(executor.isRunning(id("b"))).isTrue();
  }

  // ---- environment and the deps file ----

  @Test
  void eachDependantGetsTheFoldersOfItsDependenciesAndTheDepsFile() throws IOException {
    Engine e = engine(true,
        group("prep", t("prep-data.v1", "prep"), t("x", "prep")),
        group("train", t("train", "train").after(ok("prep-data.v1")).follow(ok("x")), t("lone", "train")));
    e.start();
    executor.exit(id("prep-data.v1"), 0);
    executor.exit(id("x"), 0);
    e.drain();

    LaunchRequest train = executor.lastLaunch(id("train"));
    assertThat(train.env())
        .containsEntry("BERTH_DEP_PREP_DATA_V1_DIR", dir.resolve("prep").resolve("prep-data.v1").toString())
        .containsEntry("BERTH_DEP_X_DIR", dir.resolve("prep").resolve("x").toString());
    Path depsFile = dir.resolve("train").resolve("train").resolve("berth-deps.json");
    assertThat(train.env()).containsEntry("BERTH_DEPS_FILE", depsFile.toString());
    JsonNode deps = new ObjectMapper().readTree(depsFile.toFile());
    assertThat(deps.fieldNames()).toIterable().containsExactly("prep-data.v1", "x");
    assertThat(deps.get("prep-data.v1").get("group").asText()).isEqualTo("prep");
    assertThat(deps.get("prep-data.v1").get("dir").asText()).isEqualTo(dir.resolve("prep/prep-data.v1").toString());
    assertThat(deps.get("prep-data.v1").get("status").asText()).isEqualTo("SUCCEEDED");

    assertThat(executor.lastLaunch(id("lone")).env()).doesNotContainKey("BERTH_DEPS_FILE")
        .noneSatisfy((k, v) -> assertThat(k).startsWith("BERTH_DEP_"));
  }

  @Test
  void theDepsFileOfACleanupTaskSaysHowItsParentsEnded() throws IOException {
    Engine e = engine(t("a"), t("b").after(ok("a")),
        t("cleanup").after(new Dependency(ids("a", "b"), true, true, true)));
    e.start();
    executor.exit(id("a"), 4);
    e.drain();

    JsonNode deps = new ObjectMapper().readTree(Path.of(executor.lastLaunch(id("cleanup")).env().get("BERTH_DEPS_FILE"))
        .toFile());
    assertThat(deps.get("a").get("status").asText()).isEqualTo("FAILED");
    assertThat(deps.get("b").get("status").asText()).isEqualTo("UNREACHABLE");
  }

  @Test
  void aRetriedDependantGetsTheEnvironmentAgain() {
    Engine e = engine(t("a"), t("b").after(ok("a")).set(TaskKeys.RETRIES, 1));
    e.start();
    executor.exit(id("a"), 0);
    e.drain();
    executor.exit(id("b"), 1);
    e.drain();

    assertThat(executor.launched(id("b"))).hasSize(2)
        .allSatisfy(r -> assertThat(r.env()).containsKeys("BERTH_DEP_A_DIR", "BERTH_DEPS_FILE"));
  }

  @Test
  void withGroupsInParallelALaterGroupsTaskStartsAsSoonAsItsOwnDependencyIsDone() {
    Engine e = engine(true,
        group("first", t("a", "first"), t("long", "first")),
        group("second", t("b", "second").after(ok("a"))));
    e.start();

    executor.exit(id("a"), 0);
    e.drain();

    assertThat(executor.isRunning(id("b"))).isTrue();
    assertThat(executor.isRunning(id("long"))).isTrue();
  }
}
