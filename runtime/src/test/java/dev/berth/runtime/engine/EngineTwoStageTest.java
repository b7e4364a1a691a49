package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.MemoryJournal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-stage tasks that misbehave, played through a fake control channel: whatever the process does,
 * its attempt ends legally with a reason and the right stage, and the run ends with its report.
 */
class EngineTwoStageTest {

  private static final long MIB = 1L << 20;
  private static final TaskId FIT = TaskId.of("fit");
  private static final TaskId OTHER = TaskId.of("other");

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeExecutor executor = new FakeExecutor();
  private final FakeControl control = new FakeControl();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(4).totalGiB(16).availableGiB(12).utilization(0.1);
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB).build();

  private final FakeGpuProbe gpus = new FakeGpuProbe();

  private Engine engine(SchedulerConfig cfg, TaskSpec... tasks) {
    RunSpec spec = new RunSpec("r", dir.toString(), cfg, List.of(new GroupSpec("g", List.of(tasks))));
    return new Engine(spec, new RunLayout(dir), executor, probe, gpus, clock, clock, RunListener.NONE)
        .control(control.opener());
  }

  private static TaskSpec.Builder twoStage(TaskId id) {
    return TaskSpec.builder(id.value(), "g").command("train", id.value()).memoryBytes(64 * MIB).cpus(1).twoStage(true);
  }

  private static TaskSpec oneStage(TaskId id) {
    return TaskSpec.builder(id.value(), "g").command("work", id.value()).memoryBytes(64 * MIB).cpus(1).build();
  }

  /** Plays a well-behaved task up to its train stage. */
  private void trainUp(Engine engine, TaskId id) {
    control.hello(id);
    control.say(id, new TaskMessage.Status(TaskPhase.LOADING));
    control.say(id, new TaskMessage.Status(TaskPhase.WAITING));
    engine.drain();
    assertThat(engine.state().task(id).state()).isEqualTo(TaskState.TRAINING);
    control.say(id, new TaskMessage.Status(TaskPhase.TRAINING));
    engine.drain();
  }

  private static TaskReport report(Engine engine, TaskId id) {
    return engine.result().report().groups().get(0).tasks().stream()
        .filter(t -> t.id().equals(id.value())).findFirst().orElseThrow();
  }

  @Test
  void aTaskThatExitsZeroDuringTrainingWithoutAResultFailsSayingSoAndTheRunEndsWithItsReport() {
    Engine engine = engine(config, twoStage(FIT).build(), oneStage(OTHER));
    engine.start();
    trainUp(engine, FIT);

    executor.exit(FIT, 0);
    control.hangUp(FIT);
    engine.drain();
    executor.exit(OTHER, 0);
    engine.drain();

    assertThat(engine.result()).as("the run ended").isNotNull();
    assertThat(engine.result().report().status()).isEqualTo(RunStatus.FAILED);
    TaskReport fit = report(engine, FIT);
    assertThat(fit.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(fit.error()).isEqualTo("exited 0 during training without a result");
    assertThat(fit.attempts()).extracting(AttemptReport::stage).containsExactly("TRAIN");
    assertThat(report(engine, OTHER).status()).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(dir.resolve("report.json")).exists();
  }

  @Test
  void anOutOfMemoryDeathDuringTrainingIsChargedToTrainNretryAndItsAttemptSaysTrain() {
    Engine engine = engine(config.toBuilder().set(SchedulerKeys.LOAD_NRETRY, 1)
        .set(SchedulerKeys.TRAIN_NRETRY, 2).build(), twoStage(FIT).build());
    engine.start();
    trainUp(engine, FIT);

    executor.writeOutput(FIT, "", "torch.OutOfMemoryError: CUDA out of memory\n");
    executor.exit(FIT, 1);
    control.hangUp(FIT);
    engine.drain();
    assertThat(engine.state().task(FIT).state()).as("a train call is left: it starts again").isIn(
        TaskState.AVAILABLE, TaskState.READY);
    trainUp(engine, FIT);
    executor.writeOutput(FIT, "", "torch.OutOfMemoryError: CUDA out of memory\n");
    executor.exit(FIT, 1);
    control.hangUp(FIT);
    engine.drain();

    TaskReport fit = report(engine, FIT);
    assertThat(fit.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(fit.error()).startsWith("TrainNumbersExceed: ").contains("train call 2 of 2 [scheduler.train-nretry]")
        .doesNotContain("load-nretry");
    assertThat(fit.attempts()).extracting(AttemptReport::stage).containsExactly("TRAIN", "TRAIN");
    assertThat(fit.attempts().get(0).error()).contains("train call 1 of 2 [scheduler.train-nretry]");
  }

  @Test
  void aSegfaultDuringTrainingFailsTheTaskWithoutRetriesThoughTrainCallsAreLeft() {
    Engine engine = engine(config.toBuilder().set(SchedulerKeys.TRAIN_NRETRY, 3).build(), twoStage(FIT).build());
    engine.start();
    trainUp(engine, FIT);

    executor.exit(FIT, 128 + 11);
    control.hangUp(FIT);
    engine.drain();

    TaskReport fit = report(engine, FIT);
    assertThat(fit.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(fit.error()).isEqualTo("killed by signal 11 (SIGSEGV)");
    assertThat(fit.attempts()).extracting(AttemptReport::stage).containsExactly("TRAIN");
  }

  @Test
  void aTaskThatFinishedKeepsItsResultWhenItsTimeoutEndsItBeforeItExits() {
    Engine engine = engine(config, twoStage(FIT).timeout(Duration.ofSeconds(3)).set(TaskKeys.RETRIES, 1).build());
    engine.start();
    trainUp(engine, FIT);
    control.say(FIT, new TaskMessage.Result(Map.of("accuracy", 0.9)));
    control.say(FIT, new TaskMessage.Finished(10, 20));
    engine.drain();

    clock.advance(Duration.ofSeconds(3));
    engine.drain();
    assertThat(executor.transcript()).containsExactly("launch fit#1", "terminate fit", "exit fit 143");
    control.hangUp(FIT);
    engine.drain();

    assertThat(report(engine, FIT).status()).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(dir.resolve("g/fit/result.json")).exists();
  }

  @Test
  void aResultThatArrivesAfterTheExitIsSeenStillCounts() {
    Engine engine = engine(config, twoStage(FIT).build());
    engine.start();
    trainUp(engine, FIT);

    executor.exit(FIT, 0); // the process exited before Berth read its last lines
    control.say(FIT, new TaskMessage.Result(Map.of("accuracy", 0.9)));
    control.say(FIT, new TaskMessage.Finished(10, 20));
    control.hangUp(FIT);
    engine.drain();

    assertThat(report(engine, FIT).status()).isEqualTo(TaskStatus.SUCCEEDED);
    assertThat(dir.resolve("g/fit/result.json")).exists();
  }

  @Test
  void aTaskThatFinishedAndExitedZeroSucceedsOnResumeThoughBerthDiedBeforeItJournalledTheFinish() throws Exception {
    MemoryJournal journal = new MemoryJournal();
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(config, twoStage(FIT).build()).journal(journal);
    engine.start();
    trainUp(engine, FIT);
    // 'finished' came: Berth wrote result.json and was killed before the commit of the task's
    // TRAINED; the task exited 0 and its supervisor marked the exit.
    RunLayout layout = new RunLayout(dir);
    Path taskDir = layout.taskDir(engine.state().task(FIT).spec());
    Files.createDirectories(taskDir);
    Files.writeString(taskDir.resolve("result.json"), "{\"accuracy\": 0.9}");
    engine.leaveAsCrashed();
    ExitMarks marks = ExitMarks.of(layout.runDir());
    marks.write(taskDir, 1, 0);
    marks.close();

    FakeExecutor second = new FakeExecutor();
    MemoryJournal after = journal.reopen();
    Engine resumed = new Engine(engine.state().spec(), layout, second, probe, gpus, clock, clock, RunListener.NONE)
        .control(new FakeControl().opener()).journal(after).resume(after.replay().orElseThrow());
    resumed.start();

    assertThat(resumed.state().task(FIT).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(second.transcript()).as("it does not run again").isEmpty();
    assertThat(resumed.result()).as("the run ended").isNotNull();
    assertThat(report(resumed, FIT).status()).isEqualTo(TaskStatus.SUCCEEDED);
  }

  @Test
  void aTaskThatExitedZeroDuringTrainingWhileItsBerthWasDeadRunsAgainOnResumeInsteadOfFailing() throws Exception {
    MemoryJournal journal = new MemoryJournal();
    journal.start("r", "spec", clock.instant());
    Engine engine = engine(config, twoStage(FIT).set(TaskKeys.RETRIES, 0).build()).journal(journal);
    engine.start();
    trainUp(engine, FIT);
    // Berth was killed; the task's 'finished' went to a channel no Berth read, and it exited 0.
    engine.leaveAsCrashed();
    RunLayout layout = new RunLayout(dir);
    ExitMarks marks = ExitMarks.of(layout.runDir());
    marks.write(layout.taskDir(engine.state().task(FIT).spec()), 1, 0);
    marks.close();

    FakeExecutor second = new FakeExecutor();
    MemoryJournal after = journal.reopen();
    Engine resumed = new Engine(engine.state().spec(), layout, second, probe, gpus, clock, clock, RunListener.NONE)
        .control(new FakeControl().opener()).journal(after).resume(after.replay().orElseThrow());
    resumed.start();

    assertThat(resumed.state().task(FIT).history().events()).filteredOn(TaskEvent.Ended.class::isInstance)
        .extracting(e -> ((TaskEvent.Ended) e).outcome()).containsExactly(Outcome.INTERRUPTED);
    assertThat(second.transcript()).as("its result was lost with Berth: it runs again, without a retry")
        .containsExactly("launch fit#2");
  }

  @Test
  void aResultBeforeLoadingBreaksTheProtocolAndEndsTheAttempt() {
    Engine engine = engine(config, twoStage(FIT).build());
    engine.start();
    control.hello(FIT);
    engine.drain();
    assertThat(control.commands(FIT)).containsExactly(ControlCommand.load());

    control.say(FIT, new TaskMessage.Result(Map.of("accuracy", 0.9)));
    engine.drain();

    TaskReport fit = report(engine, FIT);
    assertThat(fit.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(fit.error()).isEqualTo("broke the control protocol: sent a result before loading");
    assertThat(fit.attempts()).extracting(AttemptReport::stage).containsExactly("LOAD");
    assertThat(dir.resolve("g/fit/result.json")).doesNotExist();
  }

  @Test
  void aMalformedLineEndsTheAttemptWithTheReason() {
    Engine engine = engine(config, twoStage(FIT).build());
    engine.start();
    control.hello(FIT);
    control.say(FIT, new TaskMessage.Status(TaskPhase.LOADING));
    engine.drain();

    control.refuse(FIT, "sent a malformed line (not JSON)");
    engine.drain();

    assertThat(report(engine, FIT).error())
        .isEqualTo("broke the control protocol: sent a malformed line (not JSON) while loading");
  }

  @Test
  void aTaskThatClosesItsChannelAndLingersIsStoppedAfterAGracePeriod() {
    Engine engine = engine(config, twoStage(FIT).build());
    engine.start();
    trainUp(engine, FIT);

    control.hangUp(FIT);
    engine.drain();
    assertThat(executor.isRunning(FIT)).as("it may still be exiting").isTrue();
    clock.advance(Duration.ofMillis(LiveExecutions.TERMINATE_GRACE_MILLIS));
    engine.drain();

    assertThat(report(engine, FIT).error()).isEqualTo("closed its control channel during training and did not exit");
  }

  @Test
  void anExitWhoseConnectionAProcessLeftBehindKeepsOpenEndsTheAttemptAfterAGracePeriod() {
    Engine engine = engine(config, twoStage(FIT).build());
    engine.start();
    trainUp(engine, FIT);

    executor.exit(FIT, 1);
    engine.drain();
    assertThat(engine.result()).isNull();
    clock.advance(Duration.ofMillis(LiveExecutions.TERMINATE_GRACE_MILLIS));
    engine.drain();

    assertThat(report(engine, FIT).error()).isEqualTo("exited with code 1");
  }

  @Test
  void aLoadedTaskNoDeviceCanHoldAnyMoreIsToldToExitAndFailsForThatReason() {
    gpus.device(0, 16).simulated(0);
    SchedulerConfig cfg = config.toBuilder().set(SchedulerKeys.INTERVAL, Duration.ofSeconds(1)).build();
    Engine engine = engine(cfg, twoStage(FIT).gpuMemoryBytes(9L << 30).build(),
        twoStage(OTHER).gpuMemoryBytes(9L << 30).build());
    engine.start();
    trainUp(engine, FIT);
    gpus.device(0, 4).simulated(0); // the device now reports less memory than either task needs
    clock.advance(Duration.ofSeconds(1));
    engine.drain();

    control.hello(OTHER);
    control.say(OTHER, new TaskMessage.Status(TaskPhase.LOADING));
    control.say(OTHER, new TaskMessage.Status(TaskPhase.WAITING));
    engine.drain();
    assertThat(control.commands(OTHER)).containsExactly(ControlCommand.load(), ControlCommand.exit());
    executor.exit(OTHER, 0); // as told
    control.hangUp(OTHER);
    engine.drain();

    assertThat(engine.state().task(OTHER).state()).isEqualTo(TaskState.FAILED);
    assertThat(engine.state().task(OTHER).history().finalReason()).hasValueSatisfying(
        reason -> assertThat(reason).startsWith("can never be placed: gpu-memory on cuda:0: asked 9 GiB"));
  }
}
