package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Resources;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class HostBudgetPropertyTest {

  private static final long MIB = 1L << 20;
  private static final Instant READING = Instant.parse("2026-01-01T00:00:00Z");
  private static final long[] MILLI_CPUS = {0L, 1L, 250L, 999L, 1000L, 2000L, 5000L};

  static LongStream seeds() {
    return LongStream.range(0, 300);
  }

  /** A long in [min, max]; one time in eight an edge: min, min + 1, 0, 1, max - 1 or max. */
  private static long between(Random rnd, long min, long max) {
    if (rnd.nextInt(8) == 0) {
      long[] edges = {min, min + 1, 0, 1, max - 1, max};
      return Math.max(min, Math.min(max, edges[rnd.nextInt(edges.length)]));
    }
    return rnd.nextLong(min, max + 1);
  }

  /**
   * A double in [min, max]; one time in eight min or max, otherwise uniform, half of the time with
   * two decimals (as a typed-in limit would be) and half of the time at full precision.
   */
  private static double between(Random rnd, double min, double max) {
    if (rnd.nextInt(8) == 0) {
      return rnd.nextBoolean() ? min : max;
    }
    double d = min + rnd.nextDouble() * (max - min);
    if (rnd.nextBoolean()) {
      d = BigDecimal.valueOf(d).setScale(2, RoundingMode.HALF_UP).doubleValue();
    }
    return Math.max(min, Math.min(max, d));
  }

  /** A list size in [0, max]; one time in eight empty or full, otherwise uniform. */
  private static int size(Random rnd, int max) {
    if (rnd.nextInt(8) == 0) {
      return rnd.nextBoolean() ? 0 : max;
    }
    return rnd.nextInt(max + 1);
  }

  private static Resources request(Random rnd) {
    return new Resources(between(rnd, 0, 8192) * MIB, MILLI_CPUS[rnd.nextInt(MILLI_CPUS.length)]);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void reservationsInOnePassNeverOvercommitMemoryOrCores(long seed) {
    Random rnd = new Random(seed);
    int cpus = (int) between(rnd, 1, 16);
    long totalMiB = between(rnd, 0, 32_768);
    double availableShare = between(rnd, 0.0, 1.0);
    double memoryLimit = between(rnd, 0.05, 1.0);
    long remainMiB = between(rnd, 0, 8192);
    List<Resources> asks = new ArrayList<>();
    for (int i = size(rnd, 40); i > 0; i--) {
      asks.add(request(rnd));
    }

    long total = totalMiB * MIB;
    long available = (long) (total * availableShare);
    SchedulerConfig config = SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, 0).set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, memoryLimit)
        .set(SchedulerKeys.REMAIN_MEMORY, remainMiB * MIB).build();
    HostSnapshot s = new HostSnapshot(READING, cpus, -1, total, available, new TreeMap<>());
    HostBudget budget = HostBudget.of(config, s, new TreeMap<>());
    long floor = Math.max(
        BigDecimal.valueOf(total).multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(memoryLimit)))
            .setScale(0, RoundingMode.CEILING).longValueExact(),
        remainMiB * MIB);

    long memory = 0;
    long cores = 0;
    for (Resources r : asks) {
      HostBudget.Admission a = budget.tryReserve(r);
      assertThat(a.placement().isPresent()).as("seed %d: placed xor refused", seed).isEqualTo(a.refusals().isEmpty());
      boolean fitsCores = r.milliCpus() == 0 || cores + r.milliCpus() <= cpus * 1000L;
      boolean fitsMemory = available - memory - r.memoryBytes() >= floor;
      assertThat(a.placement().isPresent())
          .as("seed %d: %s with %d B and %d millicores already reserved, %d B available, floor %d B", seed, r, memory,
              cores, available, floor)
          .isEqualTo(fitsCores && fitsMemory);
      if (a.placement().isPresent()) {
        memory += r.memoryBytes();
        cores += r.milliCpus();
        assertThat(a.placement().get()).as("seed %d: placement of %s", seed, r)
            .isEqualTo(Placement.cpu(r.memoryBytes(), r.milliCpus()));
      }
      assertThat(budget.usableMemory()).as("seed %d: usable memory after %s", seed, r)
          .isEqualTo(Math.max(0, available - memory - floor));
    }
    assertThat(cores).as("seed %d: millicores reserved vs %d cpus", seed, cpus).isLessThanOrEqualTo(cpus * 1000L);
    if (memory > 0) {
      assertThat(available - memory).as("seed %d: memory left after admissions vs floor", seed)
          .isGreaterThanOrEqualTo(floor);
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void outstandingMemoryIsReservedMinusMeasuredNeverBelowZeroAndInFullAfterTheReading(long seed) {
    Random rnd = new Random(seed);
    List<Long> reservedMiB = new ArrayList<>();
    for (int i = size(rnd, 12); i > 0; i--) {
      reservedMiB.add(between(rnd, 0, 4096));
    }
    List<Long> measuredMiB = new ArrayList<>();
    for (int i = size(rnd, 12); i > 0; i--) {
      measuredMiB.add(between(rnd, -1, 4096));
    }
    List<Integer> launchOffsets = new ArrayList<>();
    for (int i = size(rnd, 12); i > 0; i--) {
      launchOffsets.add((int) between(rnd, -3, 3));
    }

    long total = 1L << 45;
    long available = 1L << 44;
    SortedMap<TaskId, TaskEvent.Launched> running = new TreeMap<>();
    SortedMap<TaskId, Long> measured = new TreeMap<>();
    long expectedOutstanding = 0;
    for (int i = 0; i < reservedMiB.size(); i++) {
      TaskId id = TaskId.of("t" + i);
      long reserved = reservedMiB.get(i) * MIB;
      int offset = i < launchOffsets.size() ? launchOffsets.get(i) : 0;
      long m = i < measuredMiB.size() ? measuredMiB.get(i) : -1;
      running.put(id, new TaskEvent.Launched(READING.plusSeconds(offset), 1, Placement.cpu(reserved, 0), i, false));
      if (m >= 0) {
        measured.put(id, m * MIB);
      }
      boolean visible = offset <= 0;
      long seen = visible && m >= 0 ? m * MIB : 0;
      expectedOutstanding += Math.max(0, reserved - seen);
    }
    SchedulerConfig config = SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, 0).set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0).set(SchedulerKeys.REMAIN_MEMORY, 0L).build();
    HostBudget budget = HostBudget.of(config, new HostSnapshot(READING, 4, -1, total, available, measured), running);
    assertThat(budget.usableMemory())
        .as("seed %d: reserved MiB %s, measured MiB %s, launch offsets %s", seed, reservedMiB, measuredMiB, launchOffsets)
        .isEqualTo(available - expectedOutstanding);
  }
}
