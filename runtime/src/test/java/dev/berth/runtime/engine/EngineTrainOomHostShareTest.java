package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.SimulatedDevices;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.host.HostLedgers;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import dev.berth.runtime.gpu.SimulatedGpuProbe;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.spi.SharedReservations;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A two-stage task that runs out of GPU memory in its train stage, with the host ledger on: its
 * retry asks more, and what the task itself held never keeps it waiting.
 */
class EngineTrainOomHostShareTest {

  private static final long GIB = 1L << 30;
  private static final String GPUS = "sim:2x24GiB";
  private static final TaskId FIT = TaskId.of("fit");

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeExecutor executor = new FakeExecutor();
  private final FakeControl control = new FakeControl();
  private final Supplier<SharedReservations> host = HostLedgers.sharedInMemory();
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, 0L)
      .set(SchedulerKeys.REMAIN_CUDA_MEMORY, 0L)
      .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 0.8).set(SchedulerKeys.INTERVAL, Duration.ofSeconds(1)).build();

  private Engine engine() {
    TaskSpec fit = TaskSpec.builder(FIT.value(), "g").command("train").cpus(0).memoryBytes(200L << 20)
        .gpuMemoryBytes(10 * GIB).twoStage(true).build();
    RunSpec spec = new RunSpec("oom", dir.toString(), config, List.of(new GroupSpec("g", List.of(fit))), false, GPUS,
        dev.berth.core.model.Reporting.NONE);
    SharedReservations ledger = host.get();
    ledger.join(HostLedgers.self("oom", dir.toString()), clock.instant());
    return new Engine(spec, new RunLayout(dir), executor, new FakeHostProbe().cpus(8).totalGiB(64).availableGiB(64),
        new SimulatedGpuProbe(SimulatedDevices.parse(GPUS)), clock, clock, RunListener.NONE)
        .control(control.opener()).shareHost(ledger);
  }

  /** Plays the task up to its first train call and has it run out of GPU memory there. */
  private void trainThenRunOut(Engine engine) {
    control.hello(FIT);
    control.say(FIT, new TaskMessage.Status(TaskPhase.LOADING));
    control.say(FIT, new TaskMessage.Status(TaskPhase.WAITING));
    engine.drain();
    assertThat(engine.state().task(FIT).state()).isEqualTo(TaskState.TRAINING);
    control.say(FIT, new TaskMessage.Status(TaskPhase.TRAINING));
    engine.drain();
    control.say(FIT, new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory"));
    engine.drain();
  }

  /** What run {@code name} holds on GPUs, as another run's {@code berth ps} sees it. */
  private List<Long> gpuHolds(String name) {
    return host.get().runs(false, clock.instant()).stream().filter(r -> r.name().equals(name))
        .flatMap(r -> r.reservations().stream()).filter(r -> !r.key().equals(SharedReservations.HOST))
        .map(Reservation::bytes).toList();
  }

  private long trainCalls() {
    return control.commands(FIT).stream().filter(ControlCommand.Train.class::isInstance).count();
  }

  @Test
  void aTrainRetryThatAsksMoreIsNotKeptWaitingByTheSharesItsOwnTaskHeld() {
    Engine engine = engine();
    engine.start();

    trainThenRunOut(engine);

    assertThat(engine.state().task(FIT).state()).as("trains again at once").isEqualTo(TaskState.TRAINING);
    assertThat(trainCalls()).isEqualTo(2);
    long asked = engine.state().occupancy().get(FIT).placement().gpuMemoryBytes();
    assertThat(asked).isGreaterThan(10 * GIB);
    assertThat(gpuHolds("oom")).as("the retry's share replaced the first").containsExactly(asked);
  }

  @Test
  void aTaskWaitingForABiggerShareGivesBackTheOneItRanOutOfAndTrainsOnceADeviceFrees() {
    SharedReservations other = host.get();
    other.join(HostLedgers.self("other", dir.resolve("other").toString()), clock.instant());
    assertThat(other.take(gpu("u1", 1, 10), clock.instant())).isEmpty();
    Engine engine = engine();
    engine.start();
    control.hello(FIT);
    control.say(FIT, new TaskMessage.Status(TaskPhase.LOADING));
    control.say(FIT, new TaskMessage.Status(TaskPhase.WAITING));
    engine.drain();
    assertThat(engine.state().occupancy().get(FIT).placement().device()).isEqualTo("cuda:0");
    control.say(FIT, new TaskMessage.Status(TaskPhase.TRAINING));
    assertThat(other.take(gpu("u2", 0, 5), clock.instant())).as("10 + 5 GiB of 19.2 on cuda:0").isEmpty();
    clock.advance(Duration.ofSeconds(1));
    engine.drain();

    control.say(FIT, new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory"));
    engine.drain();

    assertThat(engine.state().task(FIT).state()).as("15 GiB fit on no device").isEqualTo(TaskState.LOADED);
    assertThat(gpuHolds("oom")).as("a loaded task that waits holds no device").isEmpty();

    other.release("u2", clock.instant());
    clock.advance(Duration.ofSeconds(1));
    engine.drain();

    assertThat(engine.state().task(FIT).state()).isEqualTo(TaskState.TRAINING);
    assertThat(gpuHolds("oom")).containsExactly(engine.state().occupancy().get(FIT).placement().gpuMemoryBytes());
  }

  private static Claim gpu(String task, int device, long gib) {
    return new Claim(task, 0, 0, 8000, List.of(new Share(dev.berth.core.gpu.DeviceSelection.parse(GPUS) + "#" + device, "cuda:" + device, gib * GIB,
        (long) (24 * GIB * 0.8))));
  }
}
