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

import dev.berth.core.model.Dependency;
import dev.berth.core.model.EdgeTasks;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Releasing, and settling as unreachable or cancelled, by {@code after} and {@code follow} edges. */
class SchedulerDependencyTest {

  private static final SchedulerConfig ROOMY = unlimited().build();
  private static final HostSnapshot IDLE = host(T0, 8, 16 * GIB, 16 * GIB);
  private final Scheduler scheduler = new Scheduler(ROOMY);

  // ---- small helpers; those the scheduling tests share are in SchedulingFixtures ----

  private static TaskSpec.Builder t(String id, String group) {
    return TaskSpec.builder(id, group).command("run", id).cpus(1);
  }

  private static List<TaskId> ids(String... ids) {
    return Arrays.stream(ids).map(TaskId::of).toList();
  }

  private static Dependency allOk(String... parents) {
    return Dependency.allSucceeded(ids(parents));
  }

  private static Dependency anyOk(String... parents) {
    return new Dependency(ids(parents), false, true, false);
  }

  private static Dependency failed(String... parents) {
    return new Dependency(ids(parents), true, false, true);
  }

  private static RunState state(boolean parallel, GroupSpec... groups) {
    return startedRun(ROOMY, parallel, groups);
  }

  /** One decision pass at {@code at}, carried out the way the engine does. */
  private Decisions pass(RunState s, Instant at) {
    return SchedulingFixtures.pass(scheduler, s, IDLE, at);
  }

  /** What {@code Engine.cancelTask} does for a task with no process. */
  private static void cancel(RunState s, String task, Instant at) {
    s.apply(id(task), new TaskEvent.Settled(at, TaskState.CANCELLED, "cancelled by test"));
  }

  private static List<String> released(Decisions d) {
    return d.actions().stream().filter(Decision.Release.class::isInstance).map(x -> x.task().value()).toList();
  }

  private static List<String> started(Decisions d) {
    return d.starts().stream().map(x -> x.task().value()).toList();
  }

  // ---- release ----

  @Test
  void aDependantWaitsWhileItsParentRunsAndStartsInThePassAfterItSucceeded() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g").after(allOk("a"))));

    Decisions first = pass(s, at(0));
    assertThat(released(first)).containsExactly("a");
    assertThat(started(first)).containsExactly("a");
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.QUEUED);
    assertThat(pass(s, at(0.5)).actions()).as("a still runs").isEmpty();

    end(s, "a", 0, at(1));
    Decisions second = pass(s, at(1));

    assertThat(released(second)).containsExactly("b");
    assertThat(started(second)).containsExactly("b");
  }

  @Test
  void edgesThatShareOneListOfParentsEachKeepTheirOwnConditionAndTheTaskTheyLeaveOut() {
    EdgeTasks shared = EdgeTasks.of(ids("m-1", "m-2", "m-3"));
    RunState s = state(false, group("g", t("m-1", "g"), t("m-2", "g"),
        t("m-3", "g").after(Dependency.allSucceeded(shared.without(id("m-3")))),
        t("all", "g").after(Dependency.allSucceeded(shared)),
        t("any", "g").after(new Dependency(shared, false, true, false)),
        t("cleanup", "g").after(new Dependency(shared, true, false, true))));
    assertThat(released(pass(s, at(0)))).containsExactly("m-1", "m-2");

    end(s, "m-1", 0, at(1));
    Decisions one = pass(s, at(1));
    assertThat(released(one)).containsExactly("any");
    assertThat(settles(one)).extracting(x -> x.task().value()).containsExactly("cleanup");
    end(s, "m-2", 0, at(2));
    assertThat(released(pass(s, at(2)))).containsExactly("m-3");
    end(s, "m-3", 0, at(3));

    assertThat(released(pass(s, at(3)))).containsExactly("all");
  }

  @Test
  void aDependantOfSeveralParentsWaitsForTheLastOne() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g"), t("c", "g").after(allOk("a", "b"))));
    pass(s, at(0));

    end(s, "b", 0, at(1));
    assertThat(released(pass(s, at(1)))).isEmpty();
    end(s, "a", 0, at(2));
    assertThat(released(pass(s, at(2)))).containsExactly("c");
  }

  @Test
  void aFailedParentMakesItsDependantUnreachableWithAReasonNamingIt() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g").after(allOk("a"))));
    pass(s, at(0));

    end(s, "a", 3, at(1));
    Decisions d = pass(s, at(1));

    assertThat(settles(d)).containsExactly(
        new Decision.Settle(id("b"), TaskState.UNREACHABLE, "needs a succeeded, but a failed"));
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.UNREACHABLE);
    assertThat(s.task(id("b")).history().finalReason()).contains("needs a succeeded, but a failed");
    assertThat(s.task(id("b")).history().attemptCount()).isZero();
  }

  @Test
  void aFailureOnlyEdgeReleasesTheCleanupWhenItsParentFailed() {
    RunState s = state(false, group("g", t("a", "g"), t("cleanup", "g").after(failed("a"))));
    pass(s, at(0));

    end(s, "a", 1, at(1));

    assertThat(released(pass(s, at(1)))).containsExactly("cleanup");
  }

  @Test
  void aFailureOnlyEdgeIsUnreachableWhenItsParentSucceeded() {
    RunState s = state(false, group("g", t("a", "g"), t("cleanup", "g").after(failed("a"))));
    pass(s, at(0));

    end(s, "a", 0, at(1));

    assertThat(settles(pass(s, at(1)))).containsExactly(
        new Decision.Settle(id("cleanup"), TaskState.UNREACHABLE, "needs a failed, but a succeeded"));
  }

  @Test
  void anAnyEdgeIsReleasedByTheFirstSuccessEvenAfterAFailure() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g"), t("c", "g").after(anyOk("a", "b"))));
    pass(s, at(0));

    end(s, "a", 1, at(1));
    Decisions afterA = pass(s, at(1));
    assertThat(afterA.actions()).as("b may still succeed").isEmpty();

    end(s, "b", 0, at(2));
    assertThat(released(pass(s, at(2)))).containsExactly("c");
  }

  @Test
  void anAnyEdgeIsReleasedWithoutWaitingForTheOtherParents() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g"), t("c", "g").after(anyOk("a", "b"))));
    pass(s, at(0));

    end(s, "b", 0, at(1));

    assertThat(released(pass(s, at(1)))).containsExactly("c");
    assertThat(stateOf(s, "a")).isEqualTo(TaskState.RUNNING);
  }

  @Test
  void anAnyEdgeIsUnreachableOnlyOnceEveryParentFailed() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g"), t("c", "g").after(anyOk("a", "b"))));
    pass(s, at(0));

    end(s, "a", 1, at(1));
    pass(s, at(1));
    end(s, "b", 137, at(2));
    Decisions d = pass(s, at(2));

    assertThat(settles(d)).singleElement().satisfies(x -> {
      assertThat(x.state()).isEqualTo(TaskState.UNREACHABLE);
      assertThat(x.reason()).isEqualTo("needs any of [a, b] succeeded, but a failed, b failed");
    });
  }

  @Test
  void anAllEdgeIsUnreachableAsSoonAsOneParentFailedEvenWhileAnotherStillRuns() {
    RunState s = state(false, group("g", t("a", "g"), t("slow", "g"), t("c", "g").after(allOk("slow", "a"))));
    pass(s, at(0));

    end(s, "a", 2, at(1));
    Decisions d = pass(s, at(1));

    assertThat(settles(d)).extracting(Decision.Settle::task, Decision.Settle::state)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id("c"), TaskState.UNREACHABLE));
    assertThat(stateOf(s, "slow")).isEqualTo(TaskState.RUNNING);
  }

  @Test
  void aCancelledParentCancelsItsDependantWithAReasonNamingIt() {
    RunState s = state(false, group("g", t("a", "g").cpus(0), t("b", "g").after(allOk("a"))));
    // a is cancelled before it starts (e.g. berth cancel on a queued task)
    cancel(s, "a", at(0));

    Decisions d = pass(s, at(0));

    assertThat(settles(d)).containsExactly(
        new Decision.Settle(id("b"), TaskState.CANCELLED, "needs a succeeded, but a was cancelled"));
  }

  @Test
  void aCancelledParentSatisfiesNeitherSuccessNorFailure() {
    RunState s = state(false, group("g",
        t("a", "g"),
        t("onFail", "g").after(failed("a")),
        t("onEnd", "g").after(new Dependency(ids("a"), true, true, true))));
    cancel(s, "a", at(0));

    Decisions d = pass(s, at(0));

    assertThat(settles(d)).extracting(x -> x.task().value() + " " + x.state())
        .containsExactly("onFail CANCELLED", "onEnd CANCELLED");
  }

  @Test
  void anAnyEdgeWhoseLastHopeWasCancelledIsCancelled() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g"), t("c", "g").after(anyOk("a", "b"))));
    pass(s, at(0));
    end(s, "a", 1, at(1));
    pass(s, at(1));
    // b is cancelled while running: its attempt ends as cancelled
    s.apply(id("b"), Endings.cancelled(at(2), 143, "cancelled by test"));

    Decision.Settle x = settles(pass(s, at(2))).get(0);

    assertThat(x.state()).isEqualTo(TaskState.CANCELLED);
    assertThat(x.reason()).contains("b was cancelled");
  }

  // ---- cascades ----

  @Test
  void anUnreachableTaskCascadesOneLevelPerPassUntilNothingIsLeft() {
    RunState s = state(false, group("g",
        t("a", "g"), t("b", "g").after(allOk("a")), t("c", "g").after(allOk("b")), t("d", "g").after(allOk("c")),
        t("free", "g")));
    pass(s, at(0));
    end(s, "a", 1, at(1));

    Decisions p1 = pass(s, at(1));
    Decisions p2 = pass(s, at(1));
    Decisions p3 = pass(s, at(1));
    Decisions p4 = pass(s, at(1));

    assertThat(settles(p1)).extracting(x -> x.task().value()).containsExactly("b");
    assertThat(settles(p2)).containsExactly(
        new Decision.Settle(id("c"), TaskState.UNREACHABLE, "needs b succeeded, but b was unreachable"));
    assertThat(settles(p3)).extracting(x -> x.task().value()).containsExactly("d");
    assertThat(p4.actions()).isEmpty();
    assertThat(stateOf(s, "free")).as("an unrelated task is untouched").isEqualTo(TaskState.RUNNING);
  }

  @Test
  void aCancelledTaskCascadesAsCancelledDownTheChain() {
    RunState s = state(false, group("g",
        t("a", "g"), t("b", "g").after(allOk("a")), t("c", "g").follow(allOk("b"))));
    cancel(s, "a", at(0));

    pass(s, at(0));
    Decisions second = pass(s, at(0));

    assertThat(stateOf(s, "b")).isEqualTo(TaskState.CANCELLED);
    assertThat(settles(second)).containsExactly(
        new Decision.Settle(id("c"), TaskState.CANCELLED, "needs b succeeded, but b was cancelled"));
  }

  @Test
  void anUnreachableParentSatisfiesAFailureEdgeSoTheCleanupStillRuns() {
    RunState s = state(false, group("g",
        t("a", "g"), t("b", "g").after(allOk("a")), t("report", "g").after(failed("b"))));
    pass(s, at(0));
    end(s, "a", 1, at(1));

    pass(s, at(1)); // b unreachable
    Decisions d = pass(s, at(1));

    assertThat(released(d)).containsExactly("report");
    assertThat(started(d)).containsExactly("report");
  }

  @Test
  void aTimedOutParentSatisfiesAFailureEdge() {
    RunState s = state(false, group("g", t("a", "g"), t("after-timeout", "g").after(failed("a"))));
    pass(s, at(0));
    s.apply(id("a"), Retries.ending(s.task(id("a")), at(5), 143,
        Optional.of(new Decision.Kill(id("a"), dev.berth.core.lifecycle.Outcome.TIMED_OUT, "too long"))));

    assertThat(stateOf(s, "a")).isEqualTo(TaskState.TIMED_OUT);
    assertThat(released(pass(s, at(5)))).containsExactly("after-timeout");
  }

  @Test
  void anImpossibleEdgeWinsOverAPendingOne() {
    RunState s = state(false, group("g",
        t("a", "g"), t("slow", "g"),
        t("x", "g").after(allOk("slow")).follow(allOk("a"))));
    pass(s, at(0));
    end(s, "a", 1, at(1));

    Decisions d = pass(s, at(1));

    assertThat(settles(d)).singleElement().satisfies(x -> {
      assertThat(x.task()).isEqualTo(id("x"));
      assertThat(x.state()).isEqualTo(TaskState.UNREACHABLE);
      assertThat(x.reason()).isEqualTo("needs a succeeded, but a failed");
    });
  }

  @Test
  void aFollowEdgeIsReleasedLikeAfterAndRunsOnTheCpuOnACpuOnlyHost() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g").follow(allOk("a"))));
    pass(s, at(0));
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.QUEUED);

    end(s, "a", 0, at(1));
    Decisions d = pass(s, at(1));

    assertThat(d.starts()).singleElement().satisfies(x -> assertThat(x.placement().device()).isEqualTo(Placement.CPU));
  }

  @Test
  void bothEdgesMustBeMet() {
    RunState s = state(false, group("g", t("a", "g"), t("b", "g"), t("c", "g").after(allOk("a")).follow(allOk("b"))));
    pass(s, at(0));

    end(s, "a", 0, at(1));
    assertThat(released(pass(s, at(1)))).isEmpty();
    end(s, "b", 0, at(2));
    assertThat(released(pass(s, at(2)))).containsExactly("c");
  }

  // ---- groups ----

  @Test
  void withSequentialGroupsALaterGroupWaitsForTheEarlierOneEvenWhenItsEdgesAreMet() {
    RunState s = state(false,
        group("prep", t("a", "prep"), t("long", "prep")),
        group("train", t("b", "train").after(allOk("a")), t("c", "train")));
    pass(s, at(0));

    end(s, "a", 0, at(1));
    assertThat(pass(s, at(1)).actions()).as("prep still has 'long' running").isEmpty();

    end(s, "long", 0, at(2));
    Decisions d = pass(s, at(2));
    assertThat(released(d)).containsExactly("b", "c");
  }

  @Test
  void withSequentialGroupsAnUnreachableTaskIsSettledWhenItsGroupsTurnComes() {
    RunState s = state(false,
        group("prep", t("a", "prep"), t("long", "prep")),
        group("train", t("b", "train").after(allOk("a")), t("c", "train")));
    pass(s, at(0));

    end(s, "a", 1, at(1));
    assertThat(pass(s, at(1)).actions()).as("not yet train's turn").isEmpty();

    end(s, "long", 0, at(2));
    Decisions d = pass(s, at(2));
    assertThat(settles(d)).extracting(x -> x.task().value() + " " + x.state()).containsExactly("b UNREACHABLE");
    assertThat(released(d)).containsExactly("c");
  }

  @Test
  void withGroupsInParallelTasksOfAllGroupsMixOrderedOnlyByTheirEdges() {
    RunState s = state(true,
        group("g1", t("a", "g1"), t("b", "g1").after(allOk("c"))),
        group("g2", t("c", "g2"), t("d", "g2").after(allOk("a"))));

    Decisions first = pass(s, at(0));
    assertThat(released(first)).as("both groups at once").containsExactly("a", "c");
    assertThat(started(first)).containsExactly("a", "c");

    end(s, "c", 0, at(1));
    Decisions second = pass(s, at(1));
    assertThat(released(second)).as("an earlier group's task released by a later group's").containsExactly("b");

    end(s, "a", 0, at(2));
    Decisions third = pass(s, at(2));
    assertThat(released(third)).as("d starts while g1's b still runs").containsExactly("d");
    assertThat(stateOf(s, "b")).isEqualTo(TaskState.RUNNING);
  }

  @Test
  void withGroupsInParallelUnreachableTasksInAnyGroupAreSettledAtOnce() {
    RunState s = state(true,
        group("g1", t("a", "g1"), t("long", "g1")),
        group("g2", t("b", "g2").after(allOk("a"))));
    pass(s, at(0));

    end(s, "a", 1, at(1));

    assertThat(settles(pass(s, at(1)))).extracting(x -> x.task().value()).containsExactly("b");
    assertThat(stateOf(s, "long")).isEqualTo(TaskState.RUNNING);
  }

  @Test
  void releasesKeepSubmissionOrderAndStartsFollowPriority() {
    RunState s = state(false, group("g",
        t("a", "g").cpus(0),
        t("low", "g").after(allOk("a")).priority(0),
        t("high", "g").after(allOk("a")).priority(9)));
    pass(s, at(0));
    end(s, "a", 0, at(1));

    Decisions d = pass(s, at(1));

    assertThat(released(d)).containsExactly("low", "high");
    assertThat(started(d)).containsExactly("high", "low");
  }
}
