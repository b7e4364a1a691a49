package dev.berth.core.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TrainCallsTest {

  private static final long GIB = 1L << 30;
  private static final Placement HOST = new Placement("cpu", GIB, 1000, 0);

  private final TaskHistory history = new TaskHistory(TaskId.of("fit"));

  private static Instant at(int second) {
    return Instant.parse("2026-01-01T00:00:00Z").plusSeconds(second);
  }

  private AttemptReport onlyAttempt() {
    List<AttemptReport> reports = history.attempts().stream()
        .map(a -> AttemptReport.of(a, history.events()))
        .toList();
    assertThat(reports).hasSize(1);
    return reports.get(0);
  }

  private void loadTwoStage() {
    history.append(new TaskEvent.Released(at(0)));
    history.append(new TaskEvent.Launched(at(1), 1, HOST, 42, true));
    history.append(new TaskEvent.Staged(at(2), TaskState.LOADING));
    history.append(new TaskEvent.Staged(at(5), TaskState.LOADED));
  }

  @Test
  void aTrainCallThatRanOutOfGpuMemoryAndTheOneThatTrainedAfterItAreBothInTheOneAttempt() {
    loadTwoStage();
    history.append(new TaskEvent.Trained(at(6), 1, new Placement("0", GIB, 1000, 4 * GIB)));
    history.append(new TaskEvent.Reported(at(8), Outcome.GPU_OOM, "TRAIN", "CUDA out of memory"));
    history.append(new TaskEvent.Staged(at(8), TaskState.LOADED));
    history.append(new TaskEvent.Trained(at(10), 2, new Placement("1", GIB, 1000, 6 * GIB)));
    history.append(new TaskEvent.Staged(at(20), TaskState.TRAINED));
    history.append(new TaskEvent.Ended(at(21), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));

    AttemptReport attempt = onlyAttempt();

    assertThat(attempt.trainCalls()).containsExactly(
        new TrainCall(1, "0", 4 * GIB, at(6), at(8), "GPU_OOM", "CUDA out of memory"),
        new TrainCall(2, "1", 6 * GIB, at(10), at(20), TrainCall.TRAINED, null));
    assertThat(attempt.device()).isEqualTo("1");
    assertThat(attempt.trainTimeMs()).isEqualTo(10_000L);
  }

  @Test
  void aTrainCallStillTrainingIsRunningAndOneCutShortByItsAttemptsEndTakesThatEnding() {
    loadTwoStage();
    history.append(new TaskEvent.Trained(at(6), 1, new Placement("0", GIB, 1000, 2 * GIB)));
    assertThat(onlyAttempt().trainCalls())
        .containsExactly(new TrainCall(1, "0", 2 * GIB, at(6), null, TrainCall.RUNNING, null));

    history.append(new TaskEvent.Ended(at(9), Outcome.KILLED, 137, "killed by signal 9", TaskState.FAILED));

    assertThat(onlyAttempt().trainCalls())
        .containsExactly(new TrainCall(1, "0", 2 * GIB, at(6), at(9), "KILLED", "killed by signal 9"));
  }

  @Test
  void aOneStageAttemptHasNoTrainCalls() {
    history.append(new TaskEvent.Released(at(0)));
    history.append(new TaskEvent.Launched(at(1), 1, HOST, 42, false));
    history.append(new TaskEvent.Ended(at(3), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));

    assertThat(onlyAttempt().trainCalls()).isEmpty();
  }

  @Test
  void theConstructorsWithoutTrainCallsGiveNone() {
    AttemptReport local = new AttemptReport(1, at(0), at(1), 0, "cpu", 7, GIB, 0, 1.0, "SUCCEEDED", null);

    assertThat(local.trainCalls()).isEmpty();
    assertThat(local.withStderrTail("boom").trainCalls()).isEmpty();
  }
}
