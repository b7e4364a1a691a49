package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskStatus;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineTest {

  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeExecutor executor = new FakeExecutor();
  private final FakeHostProbe probe = new FakeHostProbe().cpus(2).totalGiB(16).availableGiB(12).utilization(0.1);
  private final SchedulerConfig config = SchedulerConfig.builder().set(SchedulerKeys.REMAIN_MEMORY, MIB).build();

  private static TaskSpec task(String id, String group) {
    return TaskSpec.builder(id, group).command("work", id).memoryBytes(64 * MIB).cpus(1).build();
  }

  private static GroupSpec group(String name, String... ids) {
    return new GroupSpec(name, Arrays.stream(ids).map(id -> task(id, name)).toList());
  }

  private Engine engine(SchedulerConfig cfg, GroupSpec... groups) {
    RunSpec spec = new RunSpec("r", dir.toString(), cfg, List.of(groups));
    return new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE);
  }

  private static TaskId id(String s) {
    return TaskId.of(s);
  }

  @Test
  void aFreedSlotIsRefilledOnTheExitItselfWithoutWaitingForAProbeTick() {
    Engine engine = engine(config, group("g", "a", "b", "c"));
    engine.start();
    assertThat(executor.transcript()).containsExactly("launch a#1", "launch b#1");

    executor.exit(id("a"), 0);
    engine.drain();

    assertThat(executor.transcript()).containsExactly("launch a#1", "launch b#1", "exit a 0", "launch c#1");
    assertThat(clock.instant()).as("no time passed: the refill came from the exit event").isEqualTo(new FakeClock().instant());
  }

  @Test
  void aLaterGroupStartsOnlyAfterEveryTaskOfTheEarlierGroupHasEnded() {
    Engine engine = engine(config, group("first", "a", "b"), group("second", "c"));
    engine.start();
    executor.exit(id("a"), 0);
    engine.drain();
    assertThat(executor.launched(id("c"))).isEmpty();

    executor.exit(id("b"), 1);
    engine.drain();

    assertThat(executor.transcript()).endsWith("exit b 1", "launch c#1");
    assertThat(engine.state().task(id("b")).state()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void theRunEndsWithAReportOnDiskOnceEveryTaskHasEnded() throws Exception {
    Engine engine = engine(config, group("g", "ok", "bad"));
    engine.start();
    executor.exit(id("ok"), 0);
    executor.exit(id("bad"), 3);
    engine.drain();

    RunResult result = engine.result();
    assertThat(result).isNotNull();
    assertThat(result.report().status()).isEqualTo(RunStatus.FAILED);
    assertThat(result.report().groups().get(0).tasks()).extracting(t -> t.status())
        .containsExactly(TaskStatus.SUCCEEDED, TaskStatus.FAILED);
    assertThat(result.report().groups().get(0).tasks().get(1).error()).isEqualTo("exited with code 3");
    assertThat(Files.readString(dir.resolve("report.json"))).contains("\"status\" : \"FAILED\"");
  }

  @Test
  void aTaskWaitingForMemoryStartsAtTheProbeTickThatShowsMemoryFreed() {
    SchedulerConfig tight = config.toBuilder().set(SchedulerKeys.INTERVAL, Duration.ofSeconds(1))
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0).build();
    probe.availableMemory(100 * MIB);
    Engine engine = engine(tight, group("g", "a", "b"));
    engine.start();
    assertThat(executor.transcript()).containsExactly("launch a#1");

    probe.availableMemory(8L << 30);
    clock.advance(Duration.ofMillis(999));
    engine.drain();
    assertThat(executor.transcript()).containsExactly("launch a#1");
    clock.advance(Duration.ofMillis(1));
    engine.drain();

    assertThat(executor.transcript()).containsExactly("launch a#1", "launch b#1");
  }

  @Test
  void cancellingTerminatesRunningTasksCancelsWaitingOnesAndStillWritesTheReport() {
    Engine engine = engine(config, group("g", "a", "b", "c"), group("later", "d"));
    engine.start();

    engine.cancel("interrupted");
    engine.drain();

    assertThat(executor.terminations()).extracting(FakeExecutor.Termination::task).containsExactly(id("a"), id("b"));
    RunResult result = engine.result();
    assertThat(result.report().status()).isEqualTo(RunStatus.CANCELLED);
    assertThat(result.report().totals().cancelled()).isEqualTo(4);
    assertThat(engine.state().task(id("a")).history().finalReason()).contains("interrupted");
    assertThat(dir.resolve("report.json")).exists();
  }

  @Test
  void aTaskWhoseProcessCannotStartFailsAndTheOthersGoOn() {
    executor.failLaunchOf(id("a"), "no such program");
    Engine engine = engine(config, group("g", "a", "b"));
    engine.start();

    assertThat(engine.state().task(id("a")).state()).isEqualTo(TaskState.FAILED);
    assertThat(engine.state().task(id("a")).history().finalReason()).contains("could not start: no such program");
    assertThat(executor.running()).contains(id("b"));
  }

  @Test
  void eachTaskGetsItsFolderLogsAndBerthEnvironment() {
    RunSpec spec = new RunSpec("r", dir.toString(), config, List.of(new GroupSpec("g", List.of(
        TaskSpec.builder("t-1", "g").command("work").memoryBytes(MIB).cpus(0.5)
            .params(java.util.Map.of("lr", "0.1")).env(java.util.Map.of("SEED", "7")).build()))));
    Engine engine = new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, RunListener.NONE);
    engine.start();

    var request = executor.lastLaunch(id("t-1"));
    assertThat(request.workdir()).isEqualTo(dir.resolve("g/t-1"));
    assertThat(request.stdout()).isEqualTo(dir.resolve("g/t-1/attempt-1.stdout.log"));
    assertThat(request.stderr()).isEqualTo(dir.resolve("g/t-1/attempt-1.stderr.log"));
    assertThat(request.env())
        .containsEntry("SEED", "7")
        .containsEntry("BERTH_TASK_ID", "t-1")
        .containsEntry("BERTH_GROUP", "g")
        .containsEntry("BERTH_RUN_DIR", dir.toString())
        .containsEntry("BERTH_DEVICE", "cpu")
        .containsEntry("BERTH_CPUS", "0.5")
        .containsEntry("BERTH_ATTEMPT", "1")
        .containsEntry("BERTH_PARAM_LR", "0.1");
  }

  @Test
  void theListenerSeesEveryEventInOrder() {
    List<String> seen = new ArrayList<>();
    RunListener listener = new RunListener() {
      @Override
      public void taskEvent(dev.berth.core.scheduling.TaskRecord task, dev.berth.core.lifecycle.TaskEvent event) {
        seen.add(task.spec().id() + ":" + event.target());
      }

      @Override
      public void runFinished(dev.berth.core.report.RunReport report) {
        seen.add("finished:" + report.status());
      }
    };
    RunSpec spec = new RunSpec("r", dir.toString(), config, List.of(group("g", "a")));
    Engine engine = new Engine(spec, new RunLayout(dir), executor, probe, clock, clock, listener);
    engine.start();
    executor.exit(id("a"), 0);
    engine.drain();

    assertThat(seen).as("released, launched, started (its pid), ended")
        .containsExactly("a:READY", "a:RUNNING", "a:RUNNING", "a:SUCCEEDED", "finished:SUCCEEDED");
  }

  @Test
  void probeTicksStopWhenTheRunEnds() {
    Engine engine = engine(config, group("g", "a"));
    engine.start();
    executor.exit(id("a"), 0);
    engine.drain();
    int reads = probe.reads();

    clock.advance(Duration.ofSeconds(10));
    engine.drain();

    assertThat(probe.reads()).isEqualTo(reads);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void aTasksOwnEnforceMemoryReachesItsLaunchRequestAndATaskWithoutOneLeavesItToTheExecutor() {
    TaskSpec limited = TaskSpec.builder("limited", "g").command("work").memoryBytes(64 * MIB).enforceMemory(true).build();
    Engine engine = engine(config, new GroupSpec("g", List.of(limited, task("plain", "g"))));
    engine.start();

    assertThat(executor.lastLaunch(id("limited")).enforceMemory()).contains(true);
    assertThat(executor.lastLaunch(id("plain")).enforceMemory()).isEmpty();
  }
}
