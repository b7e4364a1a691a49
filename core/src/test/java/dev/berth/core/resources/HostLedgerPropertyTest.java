package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Resources;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

class HostLedgerPropertyTest {

  private static final long MIB = 1L << 20;
  private static final Instant READING = Instant.parse("2026-01-01T00:00:00Z");

  @Provide
  Arbitrary<Resources> requests() {
    return Combinators.combine(
            Arbitraries.longs().between(0, 8192).map(n -> n * MIB),
            Arbitraries.of(0L, 1L, 250L, 999L, 1000L, 2000L, 5000L))
        .as(Resources::new);
  }

  @Property(tries = 300)
  void reservationsInOnePassNeverOvercommitMemoryOrCores(
      @ForAll @IntRange(min = 1, max = 16) int cpus,
      @ForAll @LongRange(min = 0, max = 32_768) long totalMiB,
      @ForAll @DoubleRange(min = 0, max = 1) double availableShare,
      @ForAll @DoubleRange(min = 0.05, max = 1) double memoryLimit,
      @ForAll @LongRange(min = 0, max = 8192) long remainMiB,
      @ForAll @Size(max = 40) List<@From("requests") Resources> asks) {
    long total = totalMiB * MIB;
    long available = (long) (total * availableShare);
    SchedulerConfig config = SchedulerConfig.builder()
        .maxProcess(0).cpuUtilizationLimit(1).memoryUtilizationLimit(memoryLimit)
        .remainMemoryBytes(remainMiB * MIB).build();
    HostSnapshot s = new HostSnapshot(READING, cpus, -1, total, available, new TreeMap<>());
    HostLedger ledger = HostLedger.of(config, s, new TreeMap<>());
    long floor = Math.max(
        BigDecimal.valueOf(total).multiply(BigDecimal.ONE.subtract(BigDecimal.valueOf(memoryLimit)))
            .setScale(0, RoundingMode.CEILING).longValueExact(),
        remainMiB * MIB);

    long memory = 0;
    long cores = 0;
    for (Resources r : asks) {
      HostLedger.Admission a = ledger.tryReserve(r);
      assertThat(a.placement().isPresent()).as("placed xor refused").isEqualTo(a.refusals().isEmpty());
      boolean fitsCores = r.milliCpus() == 0 || cores + r.milliCpus() <= cpus * 1000L;
      boolean fitsMemory = available - memory - r.memoryBytes() >= floor;
      assertThat(a.placement().isPresent())
          .as("%s with %d B and %d millicores already reserved, %d B available, floor %d B", r, memory, cores,
              available, floor)
          .isEqualTo(fitsCores && fitsMemory);
      if (a.placement().isPresent()) {
        memory += r.memoryBytes();
        cores += r.milliCpus();
        assertThat(a.placement().get()).isEqualTo(Placement.cpu(r.memoryBytes(), r.milliCpus()));
      }
      assertThat(ledger.usableMemory()).isEqualTo(Math.max(0, available - memory - floor));
    }
    assertThat(cores).isLessThanOrEqualTo(cpus * 1000L);
    if (memory > 0) {
      assertThat(available - memory).as("memory left after admissions vs floor").isGreaterThanOrEqualTo(floor);
    }
  }

  @Property(tries = 300)
  void outstandingMemoryIsReservedMinusMeasuredNeverBelowZeroAndInFullAfterTheReading(
      @ForAll @Size(max = 12) List<@LongRange(min = 0, max = 4096) Long> reservedMiB,
      @ForAll @Size(max = 12) List<@LongRange(min = -1, max = 4096) Long> measuredMiB,
      @ForAll @Size(max = 12) List<@IntRange(min = -3, max = 3) Integer> launchOffsets) {
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
        .maxProcess(0).cpuUtilizationLimit(1).memoryUtilizationLimit(1).remainMemoryBytes(0).build();
    HostLedger ledger = HostLedger.of(config, new HostSnapshot(READING, 4, -1, total, available, measured), running);
    assertThat(ledger.usableMemory()).isEqualTo(available - expectedOutstanding);
  }
}
