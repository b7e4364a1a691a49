package dev.berth.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskState;
import java.util.List;
import org.junit.jupiter.api.Test;

class TotalsTest {

  @Test
  void everyStatusIsCountedOnce() {
    Totals t = Totals.count(List.of(TaskStatus.SUCCEEDED, TaskStatus.SUCCEEDED, TaskStatus.FAILED,
        TaskStatus.TIMED_OUT, TaskStatus.CANCELLED, TaskStatus.UNREACHABLE, TaskStatus.RUNNING, TaskStatus.PENDING));

    assertThat(t).isEqualTo(new Totals(8, 2, 1, 1, 1, 1, 1, 1));
    assertThat(t.ended()).isEqualTo(6);
    assertThat(t.unsuccessful()).isEqualTo(4);
  }

  @Test
  void countsKeptByStatusGiveTheTotalsOfCountingEveryTask() {
    int[] byStatus = new int[TaskStatus.values().length];
    byStatus[TaskStatus.SUCCEEDED.ordinal()] = 2;
    byStatus[TaskStatus.FAILED.ordinal()] = 1;
    byStatus[TaskStatus.INTERRUPTED.ordinal()] = 3;
    byStatus[TaskStatus.PENDING.ordinal()] = 1;

    assertThat(Totals.counted(byStatus)).isEqualTo(Totals.count(List.of(TaskStatus.SUCCEEDED, TaskStatus.PENDING,
        TaskStatus.INTERRUPTED, TaskStatus.FAILED, TaskStatus.INTERRUPTED, TaskStatus.SUCCEEDED, TaskStatus.INTERRUPTED)));
  }

  @Test
  void interruptedTasksAreCountedApartAndHaveNotEnded() {
    Totals t = Totals.count(List.of(TaskStatus.SUCCEEDED, TaskStatus.INTERRUPTED, TaskStatus.INTERRUPTED,
        TaskStatus.PENDING));

    assertThat(t).isEqualTo(new Totals(4, 1, 0, 0, 0, 0, 0, 1, 2));
    assertThat(t.ended()).isEqualTo(1);
    assertThat(t.unsuccessful()).isZero();
    assertThat(t.describe()).isEqualTo("4 tasks: 1 succeeded, 0 failed, 2 interrupted, 1 pending");
  }

  @Test
  void theSentenceNamesFailedAlwaysAndTheOtherWaysWhenTheyHappened() {
    assertThat(Totals.count(List.of(TaskStatus.SUCCEEDED)).describe()).isEqualTo("1 task: 1 succeeded, 0 failed");
    assertThat(Totals.count(List.of(TaskStatus.SUCCEEDED, TaskStatus.TIMED_OUT, TaskStatus.RUNNING,
        TaskStatus.PENDING)).describe()).isEqualTo("4 tasks: 1 succeeded, 1 timed out, 1 running, 1 pending");
    assertThat(new Totals(7, 4, 2, 0, 0, 1, 0, 0).describe()).isEqualTo("7 tasks: 4 succeeded, 2 failed, 1 unreachable");
    assertThat(new Totals(3, 0, 0, 1, 1, 1, 0, 0).describeUnsuccessful())
        .isEqualTo("1 timed out, 1 cancelled, 1 unreachable");
  }

  @Test
  void aTaskThatHasNotEndedIsRunningWhileItHasAProcessAndPendingOtherwise() {
    for (TaskState s : TaskState.values()) {
      TaskStatus expected = s.isTerminal() || s == TaskState.INTERRUPTED ? TaskStatus.valueOf(s.name())
          : s.hasProcess() ? TaskStatus.RUNNING : TaskStatus.PENDING;
      assertThat(TaskStatus.of(s)).as(s.name()).isEqualTo(expected);
    }
    assertThat(TaskStatus.of(TaskState.READY)).isEqualTo(TaskStatus.PENDING);
    assertThat(TaskStatus.of(TaskState.TRAINING)).isEqualTo(TaskStatus.RUNNING);
    assertThat(TaskStatus.of(TaskState.SUCCEEDED)).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(TaskStatus.of(TaskState.FAILED)).isEqualTo(TaskStatus.FAILED);
  }
}
