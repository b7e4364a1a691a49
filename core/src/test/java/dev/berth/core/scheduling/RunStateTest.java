package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.run;
import static dev.berth.core.scheduling.SchedulingFixtures.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.IllegalTransitionException;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunStateTest {

  private final RunState state = new RunState(run(SchedulerConfig.DEFAULTS,
      group("g1", task("a", "g1", GIB, 1), task("b", "g1", GIB, 1, 5), task("c", "g1", GIB, 1)),
      new GroupSpec("empty", List.of()),
      group("g2", task("d", "g2", GIB, 1))));

  private static Instant at(int s) {
    return T0.plusSeconds(s);
  }

  private static TaskEvent.Launched launched(int s, int attempt) {
    return new TaskEvent.Launched(at(s), attempt, Placement.cpu(GIB, 1000), 42, false);
  }

  private void release(String... ids) {
    for (String i : ids) {
      state.apply(id(i), new TaskEvent.Released(at(0)));
    }
  }

  private List<String> readyIds() {
    return state.ready().stream().map(r -> r.spec().id().value()).toList();
  }

  @Test
  void aFreshRunHasEveryTaskQueuedInSubmissionOrder() {
    assertThat(state.tasks()).extracting(r -> r.spec().id().value()).containsExactly("a", "b", "c", "d");
    assertThat(state.tasks()).extracting(TaskRecord::seq).containsExactly(0, 1, 2, 3);
    assertThat(state.tasks()).extracting(TaskRecord::groupIndex).containsExactly(0, 0, 0, 2);
    assertThat(state.tasks()).extracting(TaskRecord::state).containsOnly(TaskState.QUEUED);
    assertThat(state.ready()).isEmpty();
    assertThat(state.running()).isEmpty();
    assertThat(state.activeGroup()).isZero();
    assertThat(state.isFinished()).isFalse();
  }

  @Test
  void releasedTasksAreReadyInStartOrder() {
    release("a", "b", "c");
    assertThat(readyIds()).as("b has priority 5; a and c keep submission order").containsExactly("b", "a", "c");
  }

  @Test
  void aLaunchMovesATaskFromReadyToRunning() {
    release("a", "b");
    TaskEvent.Launched l = launched(1, 1);
    state.apply(id("a"), l);
    assertThat(readyIds()).containsExactly("b");
    assertThat(state.running()).containsOnlyKeys(id("a")).containsEntry(id("a"), l);
  }

  @Test
  void aRetryPutsTheTaskBackInReadyAndOutOfRunning() {
    release("a");
    state.apply(id("a"), launched(1, 1));
    state.apply(id("a"), new TaskEvent.Ended(at(2), Outcome.HOST_OOM, null, "oom", TaskState.READY));
    assertThat(readyIds()).containsExactly("a");
    assertThat(state.running()).isEmpty();
    assertThat(state.task(id("a")).history().attemptCount()).isEqualTo(1);
  }

  @Test
  void theActiveGroupMovesOnWhenEveryTaskIsTerminalSkippingEmptyGroups() {
    release("a", "b", "c");
    state.apply(id("a"), launched(1, 1));
    state.apply(id("a"), new TaskEvent.Ended(at(2), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    state.apply(id("b"), new TaskEvent.Settled(at(2), TaskState.FAILED, "impossible"));
    assertThat(state.activeGroup()).as("c is still unfinished").isZero();
    state.apply(id("c"), new TaskEvent.Settled(at(3), TaskState.CANCELLED, "cancelled"));
    assertThat(state.activeGroup()).as("g1 done, the empty group has nothing to wait for").isEqualTo(2);
    assertThat(state.isFinished()).isFalse();

    state.apply(id("d"), new TaskEvent.Settled(at(4), TaskState.UNREACHABLE, "skipped"));
    assertThat(state.activeGroup()).as("all done: the group count").isEqualTo(3);
    assertThat(state.isFinished()).isTrue();
    assertThat(state.ready()).isEmpty();
    assertThat(state.running()).isEmpty();
  }

  @Test
  void anEndedTaskLeavesRunning() {
    release("a");
    state.apply(id("a"), launched(1, 1));
    state.apply(id("a"), new TaskEvent.Ended(at(2), Outcome.FAILED, 1, "exited with code 1", TaskState.FAILED));
    assertThat(state.running()).isEmpty();
    assertThat(state.ready()).isEmpty();
  }

  @Test
  void anIllegalEventThrowsAndChangesNoIndex() {
    release("a");
    assertThatThrownBy(() -> state.apply(id("b"), launched(1, 1)))
        .as("b was never released")
        .isInstanceOf(IllegalTransitionException.class);
    assertThatThrownBy(() -> state.apply(id("a"), launched(1, 2)))
        .as("attempt 2 before attempt 1")
        .isInstanceOf(IllegalStateException.class);
    assertThat(readyIds()).containsExactly("a");
    assertThat(state.running()).isEmpty();
    assertThat(state.task(id("b")).state()).isEqualTo(TaskState.QUEUED);
    assertThat(state.activeGroup()).isZero();
  }

  @Test
  void anUnknownTaskIsRejectedByName() {
    assertThatThrownBy(() -> state.apply(TaskId.of("zz"), new TaskEvent.Released(at(0))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("zz");
    assertThatThrownBy(() -> state.task(TaskId.of("zz"))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theViewsCannotBeModified() {
    release("a");
    assertThatThrownBy(() -> state.tasks().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> state.ready().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> state.running().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aRunWithoutTasksIsFinishedFromTheStart() {
    RunState empty = new RunState(run(SchedulerConfig.DEFAULTS));
    assertThat(empty.isFinished()).isTrue();
    assertThat(empty.activeGroup()).isZero();
  }

  @Test
  void theStartOrderIsPriorityDescendingThenSubmissionOrder() {
    TaskRecord low = state.task(id("a"));
    TaskRecord high = state.task(id("b"));
    TaskRecord lowLater = state.task(id("c"));
    assertThat(RunState.START_ORDER.compare(high, low)).isNegative();
    assertThat(RunState.START_ORDER.compare(low, lowLater)).isNegative();
    assertThat(RunState.START_ORDER.compare(low, low)).isZero();
  }
}
