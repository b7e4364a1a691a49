package dev.berth.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AttemptStageTest {

  private static final Instant AT = Instant.parse("2026-01-01T00:00:10Z");
  private static final Placement CPU = new Placement("cpu", 1 << 20, 1000, 0);

  private final TaskHistory history = new TaskHistory(TaskId.of("fit"));

  private void launch(boolean twoStage) {
    history.append(new TaskEvent.Launched(AT, history.attemptCount() + 1, CPU, 7, twoStage));
  }

  @Test
  void aOneStageAttemptHasNoStage() {
    history.append(new TaskEvent.Released(AT));
    launch(false);

    assertThat(AttemptStage.current(history)).isEmpty();
  }

  @Test
  void aTwoStageAttemptLoadsUntilItIsHandedADeviceAndLoadsAgainWhenItWaitsForAnotherAfterAGpuOom() {
    history.append(new TaskEvent.Released(AT));
    launch(true);
    assertThat(AttemptStage.current(history)).contains(AttemptStage.LOAD);
    history.append(new TaskEvent.Staged(AT, TaskState.LOADING));
    history.append(new TaskEvent.Staged(AT, TaskState.LOADED));
    assertThat(AttemptStage.current(history)).contains(AttemptStage.LOAD);
    history.append(new TaskEvent.Trained(AT, 1, CPU));
    assertThat(AttemptStage.current(history)).contains(AttemptStage.TRAIN);
    history.append(new TaskEvent.Reported(AT, Outcome.GPU_OOM, "TRAIN", "CUDA out of memory"));
    assertThat(AttemptStage.current(history)).contains(AttemptStage.TRAIN);
    history.append(new TaskEvent.Staged(AT, TaskState.LOADED));
    assertThat(AttemptStage.current(history)).contains(AttemptStage.LOAD);
  }

  @Test
  void eachAttemptHasItsOwnStageEvenWhenAttemptsShareAnInstant() {
    history.append(new TaskEvent.Released(AT));
    launch(true);
    history.append(new TaskEvent.Staged(AT, TaskState.LOADING));
    history.append(new TaskEvent.Staged(AT, TaskState.LOADED));
    history.append(new TaskEvent.Trained(AT, 1, CPU));
    history.append(new TaskEvent.Ended(AT, Outcome.KILLED, 137, "killed", TaskState.READY));
    launch(true);

    assertThat(AttemptStage.ofEach(history)).containsExactly(Optional.of("TRAIN"), Optional.of("LOAD"));
    assertThat(AttemptStage.eventsOf(history.events(), 2)).hasSize(1);
  }

  @Test
  void aTwoStageAttemptIsShownLoadingUntilItIsHandedADeviceThenOnTheDeviceItTrainedOn() {
    Placement cuda1 = new Placement("cuda:1", 0, 0, 4L << 30);
    history.append(new TaskEvent.Released(AT));
    launch(true);
    history.append(new TaskEvent.Staged(AT, TaskState.LOADING));
    history.append(new TaskEvent.Staged(AT, TaskState.LOADED));
    assertThat(AttemptStage.shownDevices(history)).containsExactly("loading");
    history.append(new TaskEvent.Trained(AT, 1, cuda1));
    assertThat(AttemptStage.shownDevices(history)).containsExactly("cuda:1");
    history.append(new TaskEvent.Ended(AT, Outcome.FAILED, 1, "exited with code 1", TaskState.READY));
    launch(true);
    assertThat(AttemptStage.shownDevices(history)).containsExactly("cuda:1", "loading");
    history.append(new TaskEvent.Ended(AT, Outcome.FAILED, 1, "exited with code 1", TaskState.READY));
    launch(false);

    assertThat(AttemptStage.shownDevices(history)).as("the second never left the CPU it loaded on")
        .containsExactly("cuda:1", "cpu", "cpu");
    assertThat(AttemptStage.ranOn(history)).containsExactly(cuda1, CPU, CPU);
  }
}
