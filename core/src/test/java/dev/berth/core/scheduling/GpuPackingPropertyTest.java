package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.carryOut;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.PlacementPolicies;
import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.GpuReading;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random GPU workloads under every placement policy: the device budget never lets reservations on a
 * device exceed what it offers under fedflow's limits, pins and targets are obeyed, whole devices
 * are never shared, and every task that could ever fit ends.
 */
class GpuPackingPropertyTest {

  static LongStream seeds() {
    return LongStream.range(0, 200);
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void reservationsStayWithinEachDeviceAndConstraintsHold(long seed) {
    Random rnd = new Random(seed);
    List<String> policies = new ArrayList<>(PlacementPolicies.names());
    policies.remove("auto"); // its intervals need time to pass; covered by its own tests
    SchedulerConfig config = SchedulingFixtures.unlimited()
        .set(SchedulerKeys.CUDA_MEMORY_UTILIZATION_LIMIT, 0.5 + rnd.nextInt(6) / 10.0)
        .set(SchedulerKeys.REMAIN_CUDA_MEMORY, rnd.nextInt(3) * GIB)
        .set(SchedulerKeys.MAX_PER_DEVICE, rnd.nextInt(4))
        .set(SchedulerKeys.PLACEMENT, PlacementPolicyName.of(policies.get(rnd.nextInt(policies.size()))))
        .set(SchedulerKeys.SEED, seed)
        .build();
    List<GpuDevice> devices = new ArrayList<>();
    int deviceCount = 1 + rnd.nextInt(4);
    for (int i = 0; i < deviceCount; i++) {
      long total = (8 + rnd.nextInt(73)) * GIB;
      devices.add(new GpuDevice(i, "GPU-" + i, "Test", total, 0, total, -1, true, List.of()));
    }
    List<TaskSpec> tasks = new ArrayList<>();
    for (int i = 0; i < 5 + rnd.nextInt(40); i++) {
      TaskSpec.Builder b = TaskSpec.builder("t" + i, "g").command("x").cpus(0);
      int kind = rnd.nextInt(10);
      if (kind == 0) {
        b.gpus(1 + rnd.nextInt(2));
      } else if (kind == 1) {
        b.device("cuda:" + rnd.nextInt(deviceCount)).gpuMemoryBytes((1 + rnd.nextInt(12)) * GIB);
      } else if (kind == 2) {
        b.targets(List.of(rnd.nextInt(deviceCount))).gpuMemoryBytes((1 + rnd.nextInt(12)) * GIB);
      } else if (kind == 3) {
        b.cpus(1);
      } else {
        b.gpuMemoryBytes((1 + rnd.nextInt(12)) * GIB);
      }
      tasks.add(b.build());
    }
    RunState state = new RunState(new RunSpec("r", "w", config, List.of(new GroupSpec("g", tasks))));
    Scheduler scheduler = new Scheduler(config);
    HostSnapshot host = new HostSnapshot(T0, 1024, -1, 1L << 50, 1L << 50, new TreeMap<>())
        .withGpus(GpuReading.of(devices));
    Instant now = T0;
    for (int round = 0; round < 500 && !state.isFinished(); round++) {
      Decisions d = scheduler.decide(state, host, now);
      carryOut(state, d, now);
      check(state, devices, config, seed);
      List<TaskId> running = new ArrayList<>(state.running().keySet());
      if (!running.isEmpty()) {
        TaskId done = running.get(rnd.nextInt(running.size()));
        state.apply(done, Endings.exited(now, 0));
      }
      now = now.plusSeconds(1);
    }
    assertThat(state.isFinished()).as("seed %d: every task ends", seed).isTrue();
  }

  private static void check(RunState state, List<GpuDevice> devices, SchedulerConfig config, long seed) {
    Map<Integer, Long> reserved = new TreeMap<>();
    Map<Integer, Integer> count = new TreeMap<>();
    Map<Integer, Boolean> whole = new TreeMap<>();
    for (Map.Entry<TaskId, TaskEvent.Launched> e : state.running().entrySet()) {
      TaskSpec spec = state.task(e.getKey()).spec();
      Placement p = e.getValue().placement();
      for (int i : p.gpuIndices()) {
        assertThat(spec.gpu().allows(i)).as("seed %d: %s on cuda:%d obeys its pin and targets", seed, e.getKey(), i)
            .isTrue();
        reserved.merge(i, p.gpuMemoryBytes() / p.gpuIndices().size(), Long::sum);
        count.merge(i, 1, Integer::sum);
        if (spec.gpu().wholeDevices() > 0) {
          whole.put(i, true);
        }
      }
    }
    for (GpuDevice d : devices) {
      int n = count.getOrDefault(d.index(), 0);
      if (whole.getOrDefault(d.index(), false)) {
        assertThat(n).as("seed %d: cuda:%d is held whole, so by one task", seed, d.index()).isEqualTo(1);
        continue;
      }
      long byLimit = java.math.BigDecimal.valueOf(d.totalMemoryBytes())
          .multiply(java.math.BigDecimal.ONE.subtract(java.math.BigDecimal.valueOf(config.cudaMemoryUtilizationLimit())))
          .setScale(0, java.math.RoundingMode.CEILING).longValueExact();
      long floor = Math.max(byLimit, config.remainCudaMemoryBytes());
      assertThat(reserved.getOrDefault(d.index(), 0L))
          .as("seed %d: reservations on cuda:%d within total %d minus floor %d", seed, d.index(), d.totalMemoryBytes(), floor)
          .isLessThanOrEqualTo(d.totalMemoryBytes() - floor);
      if (config.maxPerDevice() > 0) {
        assertThat(n).as("seed %d: max-per-device on cuda:%d", seed, d.index()).isLessThanOrEqualTo(config.maxPerDevice());
      }
    }
  }
}
