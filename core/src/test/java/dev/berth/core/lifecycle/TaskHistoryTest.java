package dev.berth.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskHistoryTest {

  private static final TaskId ID = TaskId.of("train-1");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Placement SMALL = Placement.cpu(512L << 20, 1000);
  private static final Placement BIG = Placement.cpu(2L << 30, 2500);

  private final TaskHistory history = new TaskHistory(ID);

  private static Instant at(int seconds) {
    return T0.plusSeconds(seconds);
  }

  private static TaskEvent.Launched launched(int seconds, int attempt, Placement p) {
    return new TaskEvent.Launched(at(seconds), attempt, p, 4000 + attempt, false);
  }

  private static TaskEvent.Ended ended(int seconds, Outcome outcome, Integer code, String message, TaskState target) {
    return new TaskEvent.Ended(at(seconds), outcome, code, message, target);
  }

  @Test
  void aNewHistoryIsQueuedWithNothingInIt() {
    assertThat(history.task()).isEqualTo(ID);
    assertThat(history.state()).isEqualTo(TaskState.QUEUED);
    assertThat(history.events()).isEmpty();
    assertThat(history.attempts()).isEmpty();
    assertThat(history.attemptCount()).isZero();
    assertThat(history.currentLaunch()).isEmpty();
    assertThat(history.releasedAt()).isEmpty();
    assertThat(history.finalReason()).isEmpty();
  }

  @Test
  void theStateIsTheTargetOfTheLastEvent() {
    history.append(new TaskEvent.Released(at(1)));
    assertThat(history.state()).isEqualTo(TaskState.READY);
    history.append(launched(2, 1, SMALL));
    assertThat(history.state()).isEqualTo(TaskState.RUNNING);
    history.append(ended(3, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    assertThat(history.state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(history.events()).hasSize(3);
  }

  @Test
  void aSubmissionNamesTheRunningAttemptWithoutMovingTheTask() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(new TaskEvent.Submitted(at(2), 1, "23_4"));

    assertThat(history.state()).isEqualTo(TaskState.RUNNING);
    assertThat(history.attempts()).singleElement().extracting(Attempt::clusterId).isEqualTo(java.util.Optional.of("23_4"));
    history.append(ended(3, Outcome.FAILED, 1, null, TaskState.READY));
    history.append(launched(4, 2, BIG));
    assertThat(history.attempts()).extracting(Attempt::clusterId)
        .containsExactly(java.util.Optional.of("23_4"), java.util.Optional.empty());
  }

  @Test
  void anAttemptWithTheClustersAccountingRanFromItsStartToItsEndWithTheQueueWaitApart() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(new TaskEvent.Submitted(at(2), 1, "23_4"));
    ClusterAccounting slurm = new ClusterAccounting("23_4", "COMPLETED", java.util.Optional.of(at(2)),
        java.util.Optional.of(at(40)), java.util.Optional.of(at(41)), java.util.Optional.of(java.time.Duration.ofSeconds(1)),
        "node7", "0:0");
    history.append(new TaskEvent.Accounted(at(99), 1, slurm));
    history.append(ended(99, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));

    Attempt a = history.attempts().get(0);
    assertThat(a.accounting()).contains(slurm);
    assertThat(a.ranFrom()).isEqualTo(at(40));
    assertThat(a.ranUntil()).contains(at(41));
    assertThat(slurm.queueWait()).contains(java.time.Duration.ofSeconds(38));
    assertThat(history.state()).isEqualTo(TaskState.SUCCEEDED);
  }

  @Test
  void anAttemptWithoutAccountingKeepsBerthsOwnTimesAsAnOlderJournalHasThem() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(ended(9, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));

    Attempt a = history.attempts().get(0);
    assertThat(a.accounting()).isEmpty();
    assertThat(a.ranFrom()).isEqualTo(at(2));
    assertThat(a.ranUntil()).contains(at(9));
  }

  @Test
  void anAccountingOfAnAttemptThatIsNotRunningIsRefused() {
    history.append(new TaskEvent.Released(at(1)));
    ClusterAccounting slurm = new ClusterAccounting("23", "COMPLETED", java.util.Optional.empty(),
        java.util.Optional.empty(), java.util.Optional.empty(), java.util.Optional.empty(), "", "0:0");
    assertThatThrownBy(() -> history.append(new TaskEvent.Accounted(at(1), 1, slurm)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("accounted while the task is READY");
  }

  @Test
  void aSubmissionOfAnAttemptThatIsNotRunningIsRefused() {
    history.append(new TaskEvent.Released(at(1)));
    assertThatThrownBy(() -> history.append(new TaskEvent.Submitted(at(1), 1, "23")))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("submitted while the task is READY");
    history.append(launched(2, 1, SMALL));
    assertThatThrownBy(() -> history.append(new TaskEvent.Submitted(at(2), 2, "23")))
        .isInstanceOf(IllegalStateException.class);
    assertThat(history.events()).hasSize(2);
  }

  @Test
  void aTwoStageLaunchMakesTheTaskAvailableRatherThanRunning() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(new TaskEvent.Launched(at(2), 1, SMALL, 77, true));
    assertThat(history.state()).isEqualTo(TaskState.AVAILABLE);
    assertThat(history.currentLaunch()).get().extracting(TaskEvent.Launched::twoStage).isEqualTo(true);
  }

  @Test
  void attemptsAreFoldedFromLaunchesAndEndingsWithTheirPlacements() {
    TaskEvent.Ended firstEnd = ended(10, Outcome.HOST_OOM, 137, "out of memory", TaskState.READY);
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(firstEnd);
    history.append(launched(11, 2, BIG));

    List<Attempt> attempts = history.attempts();
    assertThat(attempts).hasSize(2);
    Attempt first = attempts.get(0);
    assertThat(first.number()).isEqualTo(1);
    assertThat(first.startedAt()).isEqualTo(at(2));
    assertThat(first.placement()).isEqualTo(SMALL);
    assertThat(first.pid()).isEqualTo(4001);
    assertThat(first.end()).contains(firstEnd);
    assertThat(first.isRunning()).isFalse();

    Attempt second = attempts.get(1);
    assertThat(second.number()).isEqualTo(2);
    assertThat(second.startedAt()).isEqualTo(at(11));
    assertThat(second.placement()).isEqualTo(BIG);
    assertThat(second.end()).isEmpty();
    assertThat(second.isRunning()).isTrue();
    assertThat(history.attemptCount()).isEqualTo(2);
  }

  @Test
  void attemptNumbersMustBeConsecutiveStartingAtOne() {
    history.append(new TaskEvent.Released(at(1)));
    assertThatThrownBy(() -> history.append(launched(2, 2, SMALL)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("attempt 2 launched after attempt 0");

    history.append(launched(2, 1, SMALL));
    history.append(ended(3, Outcome.FAILED, 1, "exited with code 1", TaskState.READY));
    assertThatThrownBy(() -> history.append(launched(4, 1, SMALL)))
        .as("attempt 1 again after attempt 1")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("attempt 1 launched after attempt 1");
    assertThatThrownBy(() -> history.append(launched(4, 3, SMALL)))
        .as("skipping attempt 2")
        .isInstanceOf(IllegalStateException.class);

    history.append(launched(4, 2, SMALL));
    assertThat(history.attemptCount()).isEqualTo(2);
  }

  @Test
  void aRejectedLaunchLeavesTheHistoryUnchanged() {
    history.append(new TaskEvent.Released(at(1)));
    List<TaskEvent> before = List.copyOf(history.events());

    assertThatThrownBy(() -> history.append(launched(2, 5, SMALL))).isInstanceOf(IllegalStateException.class);

    assertThat(history.events()).containsExactlyElementsOf(before);
    assertThat(history.state()).isEqualTo(TaskState.READY);
    assertThat(history.attemptCount()).isZero();
    assertThat(history.attempts()).isEmpty();
  }

  @Test
  void anIllegalAppendThrowsAndLeavesTheHistoryUnchanged() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(ended(3, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    List<TaskEvent> before = List.copyOf(history.events());

    assertThatThrownBy(() -> history.append(new TaskEvent.Released(at(4))))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("SUCCEEDED")
        .hasMessageContaining("READY");
    assertThatThrownBy(() -> history.append(launched(4, 2, SMALL)))
        .isInstanceOf(IllegalTransitionException.class);
    assertThatThrownBy(() -> history.append(new TaskEvent.Settled(at(4), TaskState.CANCELLED, "late cancel")))
        .isInstanceOf(IllegalTransitionException.class);

    assertThat(history.events()).containsExactlyElementsOf(before);
    assertThat(history.state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(history.attemptCount()).isEqualTo(1);
    assertThat(history.finalReason()).isEmpty();
  }

  @Test
  void aQueuedTaskCannotBeLaunchedBeforeItIsReleased() {
    assertThatThrownBy(() -> history.append(launched(1, 1, SMALL)))
        .isInstanceOf(IllegalTransitionException.class)
        .hasMessageContaining("QUEUED")
        .hasMessageContaining("RUNNING");
    assertThat(history.state()).isEqualTo(TaskState.QUEUED);
    assertThat(history.events()).isEmpty();
  }

  @Test
  void eventsCannotBeModifiedFromOutside() {
    history.append(new TaskEvent.Released(at(1)));
    assertThatThrownBy(() -> history.events().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThat(history.events()).hasSize(1);
  }

  @Test
  void currentLaunchIsTheLatestLaunchWhileAProcessExists() {
    history.append(new TaskEvent.Released(at(1)));
    assertThat(history.currentLaunch()).isEmpty();
    TaskEvent.Launched first = launched(2, 1, SMALL);
    history.append(first);
    assertThat(history.currentLaunch()).contains(first);

    history.append(ended(3, Outcome.HOST_OOM, null, "oom", TaskState.READY));
    assertThat(history.currentLaunch()).as("no process between attempts").isEmpty();

    TaskEvent.Launched second = launched(4, 2, BIG);
    history.append(second);
    assertThat(history.currentLaunch()).contains(second);

    history.append(ended(5, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    assertThat(history.currentLaunch()).as("no process after the end").isEmpty();
  }

  @Test
  void releasedAtIsTheLatestRelease() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(ended(3, Outcome.FAILED, 2, "exited with code 2", TaskState.READY));
    assertThat(history.releasedAt()).contains(at(1));
  }

  @Test
  void finalReasonIsTheMessageOfTheFailingEnd() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    assertThat(history.finalReason()).as("not over yet").isEmpty();
    history.append(ended(3, Outcome.FAILED, 3, "exited with code 3", TaskState.FAILED));
    assertThat(history.finalReason()).contains("exited with code 3");
  }

  @Test
  void finalReasonIsTheReasonOfASettledTask() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(new TaskEvent.Settled(at(2), TaskState.FAILED, "can never be placed: memory"));
    assertThat(history.state()).isEqualTo(TaskState.FAILED);
    assertThat(history.finalReason()).contains("can never be placed: memory");
    assertThat(history.attempts()).isEmpty();
  }

  @Test
  void aQueuedTaskCanBeSettledAsUnreachableDirectly() {
    history.append(new TaskEvent.Settled(at(1), TaskState.UNREACHABLE, "dependency a failed"));
    assertThat(history.state()).isEqualTo(TaskState.UNREACHABLE);
    assertThat(history.finalReason()).contains("dependency a failed");
  }

  @Test
  void aSuccessfulTaskHasNoFinalReason() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(ended(3, Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
    assertThat(history.finalReason()).isEmpty();
  }

  @Test
  void aCancelledAttemptEndsTheAttemptAndGivesTheReason() {
    history.append(new TaskEvent.Released(at(1)));
    history.append(launched(2, 1, SMALL));
    history.append(ended(3, Outcome.CANCELLED, 143, "cancelled by user", TaskState.CANCELLED));
    assertThat(history.attempts()).singleElement().satisfies(a -> {
      assertThat(a.isRunning()).isFalse();
      assertThat(a.end()).get().extracting(TaskEvent.Ended::outcome).isEqualTo(Outcome.CANCELLED);
    });
    assertThat(history.finalReason()).contains("cancelled by user");
  }
}
