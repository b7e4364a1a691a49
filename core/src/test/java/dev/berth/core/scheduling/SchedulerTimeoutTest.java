package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.end;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.settles;
import static dev.berth.core.scheduling.SchedulingFixtures.startedRun;
import static dev.berth.core.scheduling.SchedulingFixtures.stateOf;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code timeout} (kill an overdue attempt) and {@code queue-timeout} (for dependencies, for resources). */
class SchedulerTimeoutTest {

  private static final SchedulerConfig ROOMY = unlimited().build();
  private static final HostSnapshot IDLE = host(T0, 8, 16 * GIB, 16 * GIB);
  private static final HostSnapshot ONE_CPU = host(T0, 1, 16 * GIB, 16 * GIB);
  private final Scheduler scheduler = new Scheduler(ROOMY);

  private static Duration secs(double s) {
    return Duration.ofMillis(Math.round(s * 1000));
  }

  private static TaskSpec.Builder t(String id, String group) {
    return TaskSpec.builder(id, group).command("run", id).cpus(1);
  }

  private static Dependency on(String... parents) {
    return Dependency.allSucceeded(Arrays.stream(parents).map(TaskId::of).toList());
  }

  private static RunState state(boolean parallel, GroupSpec... groups) {
    return startedRun(ROOMY, parallel, groups);
  }

  private Decisions pass(RunState s, HostSnapshot host, Instant at) {
    return SchedulingFixtures.pass(scheduler, s, host, at);
  }

  private Decisions pass(RunState s, Instant at) {
    return pass(s, IDLE, at);
  }

  private static List<Decision.Kill> kills(Decisions d) {
    return d.actions().stream().filter(Decision.Kill.class::isInstance).map(Decision.Kill.class::cast).toList();
  }

  // ---- timeout ----

  @Test
  void anAttemptPastItsTimeoutIsKilledAndNotBefore() {
    RunState s = state(false, group("g", t("a", "g").timeout(secs(30))));
    pass(s, at(0));

    Decisions early = pass(s, at(29.999));
    assertThat(kills(early)).isEmpty();
    assertThat(early.wakeAt()).contains(at(30));

    Decisions due = pass(s, at(30));
    assertThat(kills(due)).containsExactly(
        new Decision.Kill(id("a"), Outcome.TIMED_OUT, "ran longer than its timeout of 30.0s"));
  }

  @Test
  void aStartedAttemptIsTimedFromItsStartRatherThanItsLaunch() {
    RunState s = state(false, group("g", t("a", "g").timeout(secs(30))));
    pass(s, at(0));
    s.apply(id("a"), new TaskEvent.Started(at(2), 1, 4242));

    assertThat(kills(pass(s, at(31)))).isEmpty();
    assertThat(kills(pass(s, at(32)))).hasSize(1);
  }

  @Test
  void aPoolCallIsNotTimedWhileItWaitsForItsEngineAndIsTimedFromWhenItsEngineBeganIt() {
    RunState s = state(false, group("g", t("call", "g").set(TaskKeys.POOL, PoolSpec.named("fast")).timeout(secs(30))));
    pass(s, at(0));

    Decisions waiting = pass(s, at(100));
    assertThat(kills(waiting)).isEmpty();
    assertThat(waiting.wakeAt()).isEmpty();

    s.apply(id("call"), new TaskEvent.Started(at(100), 1, 4242));
    assertThat(kills(pass(s, at(129.999)))).isEmpty();
    assertThat(kills(pass(s, at(130)))).containsExactly(
        new Decision.Kill(id("call"), Outcome.TIMED_OUT, "ran longer than its timeout of 30.0s"));
  }

  @Test
  void theKillIsRepeatedInEveryPassUntilTheExitIsSeen() {
    RunState s = state(false, group("g", t("a", "g").timeout(secs(30))));
    pass(s, at(0));
    pass(s, at(30));

    assertThat(kills(pass(s, at(31)))).hasSize(1);
    assertThat(kills(pass(s, at(35)))).hasSize(1);
  }

  @Test
  void theKilledAttemptEndsTimedOutWhenNoRetryIsLeft() {
    RunState s = state(false, group("g", t("a", "g").timeout(secs(30)), t("b", "g").after(on("a"))));
    pass(s, at(0));
    Decision.Kill kill = kills(pass(s, at(30))).get(0);

    s.apply(id("a"), Retries.ending(s.task(id("a")), at(30.2), 143, Optional.of(kill)));
    Decisions after = pass(s, at(30.2));

    assertThat(stateOf(s, "a")).isEqualTo(TaskState.TIMED_OUT);
    assertThat(s.task(id("a")).history().finalReason()).contains("ran longer than its timeout of 30.0s");
    assertThat(settles(after)).extracting(x -> x.task().value() + " " + x.state() + ": " + x.reason())
        .containsExactly("b UNREACHABLE: needs a succeeded, but a timed out");
  }

  @Test
  void theTimeoutIsPerAttemptSoARetryGetsTheFullTimeAgain() {
    RunState s = state(false, group("g", t("a", "g").timeout(secs(30)).set(TaskKeys.RETRIES, 1)));
    pass(s, at(0));
    Decision.Kill kill = kills(pass(s, at(30))).get(0);
    s.apply(id("a"), Retries.ending(s.task(id("a")), at(31), 143, Optional.of(kill)));

    Decisions retry = pass(s, at(31));
    assertThat(retry.starts()).singleElement().satisfies(x -> assertThat(x.attempt()).isEqualTo(2));

    Decisions later = pass(s, at(60));
    assertThat(kills(later)).as("attempt 2 started at 31").isEmpty();
    assertThat(later.wakeAt()).contains(at(61));
    assertThat(kills(pass(s, at(61)))).hasSize(1);
  }

  @Test
  void onlyTheOverdueTaskIsKilledAndWakeAtIsTheNextDeadline() {
    RunState s = state(false, group("g",
        t("short", "g").timeout(secs(10)), t("long", "g").timeout(secs(50)), t("free", "g")));
    pass(s, at(0));

    Decisions d = pass(s, at(10));

    assertThat(kills(d)).extracting(Decision.Kill::task).containsExactly(id("short"));
    assertThat(d.wakeAt()).contains(at(50));
  }

  @Test
  void aTaskWithoutTimeoutIsNeverKilledAndSetsNoWake() {
    RunState s = state(false, group("g", t("a", "g")));
    pass(s, at(0));

    Decisions d = pass(s, at(1_000_000));

    assertThat(d.actions()).isEmpty();
    assertThat(d.wakeAt()).isEmpty();
  }

  // ---- queue-timeout for dependencies ----

  @Test
  void aTaskWaitingTooLongForItsDependenciesEndsTimedOut() {
    RunState s = state(false, group("g", t("slow", "g"), t("b", "g").after(on("slow")).queueTimeout(secs(5))));
    Decisions first = pass(s, at(0));
    assertThat(first.wakeAt()).contains(at(5));

    Decisions early = pass(s, at(4.999));
    assertThat(settles(early)).isEmpty();
    assertThat(early.wakeAt()).contains(at(5));

    Decisions due = pass(s, at(5));
    assertThat(settles(due)).containsExactly(
        new Decision.Settle(id("b"), TaskState.TIMED_OUT, "waited 5.0s for its dependencies [queue-timeout]"));
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.TIMED_OUT);
    assertThat(stateOf(s, "slow")).isEqualTo(TaskState.RUNNING);
  }

  @Test
  void withSequentialGroupsTheWaitForDependenciesCountsFromTheGroupsTurn() {
    RunState s = state(false,
        group("first", t("a", "first")),
        group("second", t("x", "second"), t("y", "second").after(on("x")).queueTimeout(secs(5))));
    pass(s, at(0));
    assertThat(pass(s, at(50)).actions()).as("second's turn has not come").isEmpty();

    end(s, "a", 0, at(100));
    Decisions turn = pass(s, at(100));
    assertThat(turn.wakeAt()).contains(at(105));

    assertThat(settles(pass(s, at(104.999)))).isEmpty();
    assertThat(settles(pass(s, at(105)))).extracting(Decision.Settle::task, Decision.Settle::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id("y"), TaskState.TIMED_OUT));
  }

  @Test
  void withSequentialGroupsTheGroupsTurnIsWhenTheLastTaskOfTheGroupBeforeEnded() {
    RunState s = state(false,
        group("first", t("a", "first"), t("b", "first")),
        group("second", t("x", "second"), t("y", "second").after(on("x")).queueTimeout(secs(5))));
    pass(s, at(0));
    end(s, "a", 0, at(10));
    pass(s, at(10));
    end(s, "b", 1, at(20));
    pass(s, at(20));

    assertThat(s.pendingSince(s.task(id("y")))).contains(at(20));
    assertThat(settles(pass(s, at(24.9)))).isEmpty();
    assertThat(settles(pass(s, at(25)))).hasSize(1);
  }

  @Test
  void withGroupsInParallelTheWaitForDependenciesCountsFromTheRunStart() {
    RunState s = state(true,
        group("first", t("slow", "first")),
        group("second", t("y", "second").after(on("slow")).queueTimeout(secs(5))));

    pass(s, at(0));

    assertThat(s.pendingSince(s.task(id("y")))).contains(T0);
    assertThat(settles(pass(s, at(5)))).extracting(Decision.Settle::task).containsExactly(id("y"));
  }

  @Test
  void aTaskReleasedBeforeItsQueueTimeoutIsNotTimedOutForDependencies() {
    RunState s = state(false, group("g", t("a", "g").cpus(0), t("b", "g").after(on("a")).queueTimeout(secs(5))));
    pass(s, at(0));
    end(s, "a", 0, at(4));

    Decisions d = pass(s, at(4));

    assertThat(d.starts()).extracting(Decision.Start::task).containsExactly(id("b"));
    assertThat(settles(pass(s, at(10)))).isEmpty();
  }

  @Test
  void aTaskTimedOutInTheQueueSatisfiesAFailureEdge() {
    RunState s = state(false, group("g",
        t("slow", "g"),
        t("b", "g").after(on("slow")).queueTimeout(secs(5)),
        t("alarm", "g").after(new Dependency(List.of(id("b")), true, false, true))));
    pass(s, at(0));
    pass(s, at(5));

    Decisions d = pass(s, at(5));

    assertThat(d.starts()).extracting(Decision.Start::task).containsExactly(id("alarm"));
  }

  // ---- queue-timeout for resources ----

  @Test
  void aReadyTaskWaitingTooLongForResourcesEndsTimedOut() {
    RunState s = state(false, group("g", t("hog", "g"), t("b", "g").queueTimeout(secs(3))));
    pass(s, ONE_CPU, at(0));
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.READY);

    Decisions early = pass(s, ONE_CPU, at(2.999));
    assertThat(settles(early)).isEmpty();
    assertThat(early.waiting()).extracting(w -> w.task().value()).containsExactly("b");
    assertThat(early.wakeAt()).contains(at(3));

    Decisions due = pass(s, ONE_CPU, at(3));
    assertThat(settles(due)).containsExactly(
        new Decision.Settle(id("b"), TaskState.TIMED_OUT, "waited 3.0s for resources [queue-timeout]"));
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.TIMED_OUT);
  }

  @Test
  void thePassThatReleasesATaskThatDoesNotFitAlreadyWakesAtItsResourceDeadline() {
    RunState s = state(false, group("g", t("hog", "g"), t("b", "g").queueTimeout(secs(3))));

    Decisions first = pass(s, ONE_CPU, at(0));

    assertThat(first.waiting()).extracting(w -> w.task().value()).containsExactly("b");
    assertThat(first.wakeAt()).as("the next decision falls due at 3s without any event").contains(at(3));
  }

  @Test
  void theWaitForResourcesCountsFromTheReleaseNotFromTheWaitForDependencies() {
    // a takes no core; hog holds the only one; b waits 4s for a, then for the core.
    RunState s = state(false, group("g",
        t("a", "g").cpus(0), t("hog", "g"), t("b", "g").after(on("a")).queueTimeout(secs(5))));
    pass(s, ONE_CPU, at(0));
    end(s, "a", 0, at(4));
    pass(s, ONE_CPU, at(4));
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.READY);

    Decisions stillWaiting = pass(s, ONE_CPU, at(8.999));
    assertThat(settles(stillWaiting)).as("5s since release only at 9s").isEmpty();
    assertThat(stillWaiting.wakeAt()).contains(at(9));

    assertThat(settles(pass(s, ONE_CPU, at(9)))).extracting(Decision.Settle::reason)
        .containsExactly("waited 5.0s for resources [queue-timeout]");
  }

  @Test
  void aTaskThatGetsItsResourcesInTimeIsNotTimedOut() {
    RunState s = state(false, group("g", t("hog", "g"), t("b", "g").queueTimeout(secs(3))));
    pass(s, ONE_CPU, at(0));

    end(s, "hog", 0, at(2));
    Decisions d = pass(s, ONE_CPU, at(2));

    assertThat(d.starts()).extracting(Decision.Start::task).containsExactly(id("b"));
    assertThat(pass(s, ONE_CPU, at(30)).actions()).isEmpty();
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.RUNNING);
  }

  @Test
  void aTaskHeldBackByTheProcessCapIsTimedOutToo() {
    SchedulerConfig oneProcess = unlimited().set(SchedulerKeys.MAX_PROCESS, 1).build();
    Scheduler capped = new Scheduler(oneProcess);
    RunState s = startedRun(oneProcess, false,
        group("g", t("hog", "g").cpus(0), t("b", "g").cpus(0).queueTimeout(secs(2))));
    Decisions first = SchedulingFixtures.pass(capped, s, IDLE, at(0));
    assertThat(first.blockedCount()).isEqualTo(1);

    Decisions due = capped.decide(s, IDLE, at(2));

    assertThat(settles(due)).extracting(Decision.Settle::task).containsExactly(id("b"));
  }

  @Test
  void wakeAtIsTheEarliestOfKillAndQueueDeadlines() {
    RunState s = state(false, group("g",
        t("a", "g").timeout(secs(8)),
        t("b", "g").after(on("a")).queueTimeout(secs(6))));

    Decisions d = pass(s, at(0));

    assertThat(d.wakeAt()).contains(at(6));
    pass(s, at(6));
    assertThat(pass(s, at(6)).wakeAt()).contains(at(8));
  }
}
