package dev.berth.core.scheduling;

import dev.berth.core.model.LearnUsage;
import dev.berth.core.gpu.PlacementPolicyName;
import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.carryOut;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Under placement auto, a group's GPU estimate is learned from the peaks of its ended tasks (FLGo). */
class LearnedUsageTest {

  private static RunState run(LearnUsage learn, int tasks) {
    SchedulerConfig config = SchedulingFixtures.unlimited().placement(PlacementPolicyName.AUTO).learnUsage(learn)
        .putInterval(Duration.ZERO).availableInterval(Duration.ZERO)
        .remainCudaMemoryBytes(0).cudaMemoryUtilizationLimit(1).build();
    List<TaskSpec> specs = new java.util.ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      specs.add(TaskSpec.builder("t" + i, "g").command("x").cpus(0).gpuMemoryBytes(8 * GIB).build());
    }
    return new RunState(new RunSpec("r", "w", config, List.of(new GroupSpec("g", specs))));
  }

  private static HostSnapshot host() {
    return new HostSnapshot(T0, 64, -1, 512 * GIB, 512 * GIB, new TreeMap<>())
        .withGpus(GpuReading.of(List.of(new GpuDevice(0, "G0", "Test", 80 * GIB, 0, 80 * GIB, -1, true, List.of()))));
  }

  private static long reservedFor(Decisions d, String task) {
    return d.starts().stream().filter(s -> s.task().value().equals(task)).findFirst().orElseThrow()
        .placement().gpuMemoryBytes();
  }

  @Test
  void theMeanOfEndedTasksPeaksReplacesTheEstimateAndRunningTasksDoNotCount() {
    RunState state = run(LearnUsage.MEAN, 12);
    Scheduler scheduler = new Scheduler(state.spec().config());
    carryOut(state, scheduler.decide(state, host(), T0), T0); // 8 GiB each: ten fit on 80 GiB
    state.observeGpuUsage(id("t0"), 3 * GIB);
    state.observeGpuUsage(id("t1"), 5 * GIB);
    state.observeGpuUsage(id("t2"), 1 * GIB); // still running: a warming-up task must not count
    state.apply(id("t0"), Endings.exited(T0, 0));
    state.apply(id("t1"), Endings.exited(T0, 0));

    Decisions d = scheduler.decide(state, host(), T0);

    assertThat(reservedFor(d, "t10")).as("mean of 3 and 5 GiB").isEqualTo(4 * GIB);
  }

  @Test
  void maxTakesTheLargestPeakAndOffKeepsTheRequest() {
    for (LearnUsage mode : List.of(LearnUsage.MAX, LearnUsage.OFF)) {
      RunState state = run(mode, 12);
      Scheduler scheduler = new Scheduler(state.spec().config());
      carryOut(state, scheduler.decide(state, host(), T0), T0);
      state.observeGpuUsage(id("t0"), 3 * GIB);
      state.observeGpuUsage(id("t1"), 6 * GIB);
      state.apply(id("t0"), Endings.exited(T0, 0));
      state.apply(id("t1"), Endings.exited(T0, 0));

      Decisions d = scheduler.decide(state, host(), T0);

      assertThat(reservedFor(d, "t10")).as(mode.label()).isEqualTo(mode == LearnUsage.MAX ? 6 * GIB : 8 * GIB);
    }
  }
}
