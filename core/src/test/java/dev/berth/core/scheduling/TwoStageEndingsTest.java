package dev.berth.core.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How an attempt of a two-stage task ends, whatever its process did and wherever it was. */
class TwoStageEndingsTest {

  private static final Instant AT = Instant.parse("2026-01-01T00:00:10Z");
  private static final Placement CPU = new Placement("cpu", 1 << 20, 1000, 0);

  private final Attempts attempts = new Attempts(SchedulerConfig.builder().set(SchedulerKeys.LOAD_NRETRY, 2)
      .set(SchedulerKeys.TRAIN_NRETRY, 2).build());

  private static TaskRecord task(int retries) {
    TaskSpec spec = TaskSpec.builder("fit", "g").command("train").twoStage(true).set(TaskKeys.RETRIES, retries).build();
    return new TaskRecord(spec, new TaskHistory(TaskId.of("fit")), 0, 0);
  }

  /** Moves a fresh attempt's task to {@code state} as a well-behaved process would. */
  private static TaskRecord at(TaskRecord r, TaskState state) {
    TaskHistory h = r.history();
    if (h.state() == TaskState.QUEUED) {
      h.append(new TaskEvent.Released(AT));
    }
    h.append(new TaskEvent.Launched(AT, h.attemptCount() + 1, CPU, 42, true));
    if (state == TaskState.AVAILABLE) {
      return r;
    }
    h.append(new TaskEvent.Staged(AT, TaskState.LOADING));
    if (state == TaskState.LOADING) {
      return r;
    }
    h.append(new TaskEvent.Staged(AT, TaskState.LOADED));
    if (state == TaskState.LOADED) {
      return r;
    }
    h.append(new TaskEvent.Trained(AT, (int) h.events().stream().filter(TaskEvent.Trained.class::isInstance).count() + 1,
        new Placement("cpu", 0, 0, 0)));
    if (state == TaskState.TRAINED) {
      h.append(new TaskEvent.Staged(AT, TaskState.TRAINED));
    }
    return r;
  }

  private TaskEvent.Ended exit(TaskRecord r, int code) {
    TaskEvent.Ended e = attempts.ended(r, AT, code, Optional.empty(), "");
    r.history().append(e); // legal, or this throws
    return e;
  }

  @ParameterizedTest(name = "exit 0 in {0}: {1}")
  @CsvSource(delimiter = '|', textBlock = """
      AVAILABLE | exited 0 before loading without a result
      LOADING   | exited 0 while loading without a result
      LOADED    | exited 0 while waiting for a device without a result
      TRAINING  | exited 0 during training without a result
      """)
  void exitingZeroBeforeTheTrainStageFinishedIsAFailure(TaskState state, String reason) {
    TaskRecord r = at(task(0), state);

    TaskEvent.Ended e = exit(r, 0);

    assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(e.message()).isEqualTo(reason);
    assertThat(r.state()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void exitingZeroWithoutAResultUsesARetryWhenOneIsLeft() {
    TaskRecord r = at(task(1), TaskState.TRAINING);

    assertThat(exit(r, 0).message()).isEqualTo("exited 0 during training without a result; retry 1 of 1");
    assertThat(r.state()).isEqualTo(TaskState.READY);
  }

  @Test
  void aSegfaultDuringTrainingIsAnOrdinaryFailureThatOnlyRetriesMayRetry() {
    TaskRecord none = at(task(0), TaskState.TRAINING);

    TaskEvent.Ended e = exit(none, 128 + 11);

    assertThat(e.outcome()).isEqualTo(Outcome.KILLED);
    assertThat(e.message()).isEqualTo("killed by signal 11 (SIGSEGV)");
    assertThat(none.state()).as("retries: 0, though train calls are left").isEqualTo(TaskState.FAILED);

    TaskRecord one = at(task(1), TaskState.TRAINING);
    assertThat(exit(one, 128 + 11).message()).isEqualTo("killed by signal 11 (SIGSEGV); retry 1 of 1");
    assertThat(Retries.failures(one)).isEqualTo(1);
    at(one, TaskState.TRAINING);
    assertThat(exit(one, 128 + 9).message()).as("a bare SIGKILL is no evidence of running out of memory")
        .isEqualTo("killed by signal 9 (SIGKILL)");
    assertThat(one.state()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void anOutOfMemoryDeathDuringTrainingIsChargedToTrainNretryNotToRetries() {
    TaskRecord r = at(task(0), TaskState.TRAINING);

    TaskEvent.Ended first = attempts.ended(r, AT, 1, Optional.empty(), "torch.OutOfMemoryError: CUDA out of memory");
    r.history().append(first);
    assertThat(first.message()).contains("during train call 1 of 2 [scheduler.train-nretry]; the task starts again");
    assertThat(r.state()).as("retries: 0, yet a train call is left").isEqualTo(TaskState.READY);
    assertThat(Retries.failures(r)).isZero();

    at(r, TaskState.TRAINING);
    TaskEvent.Ended second = attempts.ended(r, AT, 1, Optional.empty(), "CUDA out of memory");
    r.history().append(second);
    assertThat(second.outcome()).isEqualTo(Outcome.GPU_OOM);
    assertThat(second.message()).startsWith("TrainNumbersExceed: ran out of GPU memory (exit code 1) during train call 2 of 2");
    assertThat(r.state()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void anOutOfMemoryDeathWhileLoadingIsChargedToLoadNretry() {
    TaskRecord r = at(task(0), TaskState.LOADING);

    TaskEvent.Ended e = attempts.ended(r, AT, 1, Optional.empty(), "MemoryError");

    assertThat(e.outcome()).isEqualTo(Outcome.HOST_OOM);
    assertThat(e.message()).contains("retry 1 of 1 with a bigger reservation");
    r.history().append(e);
    at(r, TaskState.AVAILABLE);
    assertThat(attempts.ended(r, AT, 1, Optional.empty(), "CUDA out of memory").message())
        .startsWith("LoadNumbersExceed: ").contains("[scheduler.load-nretry]");
  }

  @Test
  void aTaskThatFinishedSucceedsWhateverEndsItsProcessAfterwards() {
    TaskRecord r = at(task(3), TaskState.TRAINED);
    Decision.Kill timeout = new Decision.Kill(TaskId.of("fit"), Outcome.TIMED_OUT, "ran longer than its timeout of 3s");

    TaskEvent.Ended e = attempts.ended(r, AT, 143, Optional.of(timeout), "");
    r.history().append(e);

    assertThat(e.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(e.message()).isEqualTo("result kept; the process then exited with code 143");
  }

  @Test
  void aKillForTheTasksOwnFaultEndsTheAttemptWithItsReasonAndMayBeRetried() {
    TaskRecord r = at(task(1), TaskState.LOADING);
    Decision.Kill broke = new Decision.Kill(TaskId.of("fit"), Outcome.FAILED, "broke the control protocol: sent a result while loading");

    TaskEvent.Ended e = attempts.ended(r, AT, 143, Optional.of(broke), "");

    assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(e.message()).isEqualTo("broke the control protocol: sent a result while loading; retry 1 of 1");
    assertThat(e.target()).isEqualTo(TaskState.READY);
  }
}
