package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Resources;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class HostBudgetTest {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;
  private static final Instant READING = Instant.parse("2026-01-01T00:00:00Z");

  /** No limits at all: no process cap, CPU gate off, no memory floor. */
  private static SchedulerConfig.Builder unlimited() {
    return SchedulerConfig.builder()
        .set(SchedulerKeys.MAX_PROCESS, 0)
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.REMAIN_MEMORY, 0L);
  }

  private static HostSnapshot snapshot(int cpus, double utilization, long total, long available) {
    return snapshot(cpus, utilization, total, available, Map.of());
  }

  private static HostSnapshot snapshot(
      int cpus, double utilization, long total, long available, Map<TaskId, Long> measured) {
    return new HostSnapshot(READING, cpus, utilization, total, available, new TreeMap<>(measured));
  }

  private static HostSnapshot memorySnapshot(long total, long available) {
    return snapshot(8, -1, total, available);
  }

  /** A running task launched {@code secondsAfterReading} after the snapshot was taken (negative: before). */
  private static TaskEvent.Launched launch(int secondsAfterReading, long memory, long milliCpus) {
    return new TaskEvent.Launched(
        READING.plusSeconds(secondsAfterReading), 1, Placement.cpu(memory, milliCpus), 100, false);
  }

  private static HostBudget budget(SchedulerConfig config, HostSnapshot snapshot) {
    return HostBudget.of(config, snapshot, Map.of());
  }

  private static HostBudget budget(
      SchedulerConfig config, HostSnapshot snapshot, Map<TaskId, TaskEvent.Launched> running) {
    return HostBudget.of(config, snapshot, new TreeMap<>(running));
  }

  private static Resources mem(long bytes) {
    return new Resources(bytes, 0);
  }

  private static Refusal onlyRefusal(HostBudget.Admission a) {
    assertThat(a.placement()).as("expected a refusal but the request was placed").isEmpty();
    assertThat(a.refusals()).hasSize(1);
    return a.refusals().get(0);
  }

  private static Placement placed(HostBudget.Admission a) {
    assertThat(a.refusals()).as("expected a placement but got refusals").isEmpty();
    assertThat(a.placement()).isPresent();
    return a.placement().get();
  }

  /** fedflow's three memory rules: after = free - request must be >= 0, >= total*(1-limit), >= remain. */
  @Nested
  class MemoryRules {

    /** Limit 0.75: at least 16 GiB * 0.25 = 4 GiB must stay free, more than the 1 GiB remain limit. */
    private final SchedulerConfig utilizationBinds =
        unlimited().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.75).set(SchedulerKeys.REMAIN_MEMORY, 1 * GIB).build();

    /** Limit 0.9 keeps only ~1.6 GiB of 16 GiB free, so the 5 GiB remain limit is the binding one. */
    private final SchedulerConfig remainBinds =
        unlimited().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.9).set(SchedulerKeys.REMAIN_MEMORY, 5 * GIB).build();

    /** A 16 GiB host with 10 GiB available. */
    private HostBudget tenOfSixteenFree(SchedulerConfig c) {
      return budget(c, memorySnapshot(16 * GIB, 10 * GIB));
    }

    @Test
    void aRequestMayUseExactlyAllAvailableMemoryWhenThereIsNoFloor() {
      HostBudget l = tenOfSixteenFree(unlimited().build());
      assertThat(placed(l.tryReserve(mem(10 * GIB)))).isEqualTo(Placement.cpu(10 * GIB, 0));
      assertThat(l.usableMemory()).isZero();
    }

    @Test
    void oneByteMoreThanAvailableIsRefusedAsAvailableMemory() {
      HostBudget l = tenOfSixteenFree(unlimited().build());
      Refusal r = onlyRefusal(l.tryReserve(mem(10 * GIB + 1)));
      assertThat(r.resource()).isEqualTo(Resource.MEMORY);
      assertThat(r.device()).isEqualTo(HostBudget.HOST);
      assertThat(r.asked()).isEqualTo(10 * GIB + 1);
      assertThat(r.free()).isEqualTo(10 * GIB);
      assertThat(r.rule()).isEqualTo("available memory");
      assertThat(l.usableMemory()).as("a refusal reserves nothing").isEqualTo(10 * GIB);
    }

    @Test
    void anAdmissionMayBringMemoryDownToExactlyTheUtilizationLimit() {
      assertThat(tenOfSixteenFree(utilizationBinds).usableMemory()).isEqualTo(6 * GIB);
      placed(tenOfSixteenFree(utilizationBinds).tryReserve(mem(6 * GIB - 1)));
      placed(tenOfSixteenFree(utilizationBinds).tryReserve(mem(6 * GIB)));
    }

    @Test
    void oneByteBelowTheUtilizationLimitIsRefusedNamingTheRule() {
      Refusal r = onlyRefusal(tenOfSixteenFree(utilizationBinds).tryReserve(mem(6 * GIB + 1)));
      assertThat(r.rule()).isEqualTo("utilization-limit.memory");
      assertThat(r.asked()).isEqualTo(6 * GIB + 1);
      assertThat(r.free()).as("10 GiB available minus the 4 GiB floor").isEqualTo(6 * GIB);
    }

    @Test
    void anAdmissionMayBringMemoryDownToExactlyTheRemainLimit() {
      placed(tenOfSixteenFree(remainBinds).tryReserve(mem(5 * GIB - 1)));
      placed(tenOfSixteenFree(remainBinds).tryReserve(mem(5 * GIB)));
    }

    @Test
    void oneByteBelowTheRemainLimitIsRefusedNamingTheRule() {
      Refusal r = onlyRefusal(tenOfSixteenFree(remainBinds).tryReserve(mem(5 * GIB + 1)));
      assertThat(r.rule()).isEqualTo("remain-limit.memory");
      assertThat(r.free()).as("10 GiB available minus the 5 GiB remain limit").isEqualTo(5 * GIB);
    }

    @Test
    void moreThanIsAvailableIsRefusedAsAvailableMemoryEvenWithLimits() {
      Refusal r = onlyRefusal(tenOfSixteenFree(utilizationBinds).tryReserve(mem(11 * GIB)));
      assertThat(r.rule()).isEqualTo("available memory");
      assertThat(r.free()).isEqualTo(6 * GIB);
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(doubles = {0.7, 0.8, 0.9, 0.95, 0.3, 0.55, 0.65})
    void theUtilizationLimitIsExactAtTheByteForDecimalLimits(double limit) {
      // With total = 10^10 bytes the floor total*(1-limit) is a whole number of bytes for these
      // limits, so admitting down to exactly the floor must work, and one byte more must not.
      long total = 10_000_000_000L;
      long floor = Math.round(total * (1 - limit));
      long available = total;
      SchedulerConfig c = unlimited().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, limit).build();
      long atLimit = available - floor;
      assertThat(budget(c, memorySnapshot(total, available)).usableMemory())
          .as("limit %s of %d bytes keeps %d bytes free", limit, total, floor)
          .isEqualTo(atLimit);
      placed(budget(c, memorySnapshot(total, available)).tryReserve(mem(atLimit)));
      onlyRefusal(budget(c, memorySnapshot(total, available)).tryReserve(mem(atLimit + 1)));
    }

    @Test
    void aFractionalFloorRoundsUpSoTheRuleIsNeverBroken() {
      // total 1001 bytes, limit 0.5: total*(1-limit) = 500.5, so after must be >= 501.
      SchedulerConfig c = unlimited().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.5).build();
      placed(budget(c, memorySnapshot(1001, 1001)).tryReserve(mem(500)));
      onlyRefusal(budget(c, memorySnapshot(1001, 1001)).tryReserve(mem(501)));
    }

    @Test
    void aTaskWithoutAMemoryRequestStillNeedsTheFloorToBeFree() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.REMAIN_MEMORY, 4 * GIB).build();
      Refusal r = onlyRefusal(budget(c, memorySnapshot(16 * GIB, 3 * GIB)).tryReserve(mem(0)));
      assertThat(r.rule()).isEqualTo("remain-limit.memory");
      assertThat(r.free()).as("usable memory is never reported below zero").isZero();
      placed(budget(c, memorySnapshot(16 * GIB, 4 * GIB)).tryReserve(mem(0)));
    }
  }

  /** Running tasks' reservations subtract from available memory unless the probe measured them. */
  @Nested
  class Reservations {

    private final SchedulerConfig config = unlimited().set(SchedulerKeys.REMAIN_MEMORY, 1 * GIB).build();

    @Test
    void anUnmeasuredRunningTaskCountsInFull() {
      HostBudget l = budget(config, memorySnapshot(16 * GIB, 10 * GIB),
          Map.of(TaskId.of("r"), launch(-5, 3 * GIB, 1000)));
      assertThat(l.usableMemory()).as("10 GiB available - 3 GiB reserved - 1 GiB remain").isEqualTo(6 * GIB);
    }

    @Test
    void measuredUsageCoversPartOfTheReservation() {
      HostSnapshot s = snapshot(8, -1, 16 * GIB, 10 * GIB, Map.of(TaskId.of("r"), 1 * GIB));
      HostBudget l = budget(config, s, Map.of(TaskId.of("r"), launch(-5, 3 * GIB, 1000)));
      assertThat(l.usableMemory())
          .as("10 GiB available already excludes the 1 GiB measured; 2 GiB of 3 GiB are still promised")
          .isEqualTo(7 * GIB);
    }

    @Test
    void usageAboveTheReservationNeverAddsMemory() {
      HostSnapshot s = snapshot(8, -1, 16 * GIB, 10 * GIB, Map.of(TaskId.of("r"), 5 * GIB));
      HostBudget l = budget(config, s, Map.of(TaskId.of("r"), launch(-5, 3 * GIB, 1000)));
      assertThat(l.usableMemory()).as("reserved - measured is clamped at zero").isEqualTo(9 * GIB);
    }

    @Test
    void aTaskLaunchedAfterTheReadingCountsInFullEvenIfAMeasurementIsPresent() {
      HostSnapshot s = snapshot(8, -1, 16 * GIB, 10 * GIB, Map.of(TaskId.of("r"), 1 * GIB));
      HostBudget l = budget(config, s, Map.of(TaskId.of("r"), launch(+1, 3 * GIB, 1000)));
      assertThat(l.usableMemory()).as("the reading cannot include a process started after it").isEqualTo(6 * GIB);
    }

    @Test
    void aTaskLaunchedAtTheInstantOfTheReadingIsVisibleToIt() {
      HostSnapshot s = snapshot(8, -1, 16 * GIB, 10 * GIB, Map.of(TaskId.of("r"), 1 * GIB));
      HostBudget l = budget(config, s, Map.of(TaskId.of("r"), launch(0, 3 * GIB, 1000)));
      assertThat(l.usableMemory()).isEqualTo(7 * GIB);
    }

    @Test
    void severalRunningTasksAddUp() {
      HostSnapshot s = snapshot(8, -1, 16 * GIB, 12 * GIB,
          Map.of(TaskId.of("a"), 512 * MIB, TaskId.of("b"), 4 * GIB, TaskId.of("c"), 1 * GIB));
      HostBudget l = budget(config, s, Map.of(
          TaskId.of("a"), launch(-9, 1 * GIB, 1000),   // 0.5 GiB outstanding
          TaskId.of("b"), launch(-9, 2 * GIB, 1000),   // measured above reservation: 0
          TaskId.of("c"), launch(+3, 2 * GIB, 1000),   // after the reading: 2 GiB
          TaskId.of("d"), launch(-9, 1 * GIB, 1000))); // not measured: 1 GiB
      assertThat(l.usableMemory())
          .as("12 GiB - (0.5 + 0 + 2 + 1) GiB outstanding - 1 GiB remain")
          .isEqualTo(12 * GIB - 3 * GIB - 512 * MIB - 1 * GIB);
    }

    @Test
    void twoReservationsInOnePassNeverSeeTheSameMemoryTwice() {
      HostBudget l = budget(config, memorySnapshot(16 * GIB, 7 * GIB));
      placed(l.tryReserve(mem(4 * GIB)));
      assertThat(l.usableMemory()).as("7 - 4 - 1 GiB").isEqualTo(2 * GIB);
      Refusal r = onlyRefusal(l.tryReserve(mem(4 * GIB)));
      assertThat(r.free()).isEqualTo(2 * GIB);
      assertThat(r.reserved()).as("the first admission is reserved").isEqualTo(4 * GIB);
      placed(l.tryReserve(mem(2 * GIB)));
      onlyRefusal(l.tryReserve(mem(1)));
    }

    @Test
    void theRefusalReportsEverythingBerthHasReserved() {
      HostBudget l = budget(config, memorySnapshot(16 * GIB, 10 * GIB),
          Map.of(TaskId.of("r"), launch(-5, 3 * GIB, 1000)));
      placed(l.tryReserve(mem(2 * GIB)));
      Refusal r = onlyRefusal(l.tryReserve(mem(5 * GIB)));
      assertThat(r.reserved()).as("3 GiB running + 2 GiB admitted this pass").isEqualTo(5 * GIB);
      assertThat(r.free()).as("10 - 3 - 2 - 1 GiB").isEqualTo(4 * GIB);
    }

    @Test
    void outstandingReservationsAboveAvailableMemoryRefuseEverything() {
      HostBudget l = budget(config, memorySnapshot(16 * GIB, 2 * GIB),
          Map.of(TaskId.of("r"), launch(+1, 8 * GIB, 1000)));
      assertThat(l.usableMemory()).isZero();
      Refusal r = onlyRefusal(l.tryReserve(mem(1)));
      assertThat(r.free()).isZero();
      assertThat(r.rule()).isEqualTo("available memory");
    }
  }

  @Nested
  class Cores {

    @Test
    void coresAddUpToExactlyTheLogicalCpus() {
      HostBudget l = budget(unlimited().build(), snapshot(4, -1, 16 * GIB, 16 * GIB),
          Map.of(TaskId.of("r"), launch(-1, 0, 2500)));
      placed(l.tryReserve(new Resources(0, 1500)));
      Refusal r = onlyRefusal(l.tryReserve(new Resources(0, 1)));
      assertThat(r.resource()).isEqualTo(Resource.CPUS);
      assertThat(r.asked()).isEqualTo(1);
      assertThat(r.free()).isZero();
      assertThat(r.reserved()).as("2.5 running + 1.5 admitted").isEqualTo(4000);
      assertThat(r.rule()).isEqualTo("logical CPUs of the host");
    }

    @Test
    void oneThousandthOfACoreTooManyIsRefused() {
      HostBudget l = budget(unlimited().build(), snapshot(4, -1, 16 * GIB, 16 * GIB));
      Refusal r = onlyRefusal(l.tryReserve(new Resources(0, 4001)));
      assertThat(r.free()).isEqualTo(4000);
    }

    @Test
    void schedulerCoresOverridesTheLogicalCpus() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.CORES, 2).build();
      HostBudget l = budget(c, snapshot(64, -1, 16 * GIB, 16 * GIB));
      placed(l.tryReserve(new Resources(0, 2000)));
      Refusal r = onlyRefusal(l.tryReserve(new Resources(0, 500)));
      assertThat(r.rule()).isEqualTo("scheduler.cores");
      assertThat(r.free()).isZero();
    }

    @Test
    void schedulerCoresMayAlsoExceedTheLogicalCpus() {
      HostBudget l = budget(unlimited().set(SchedulerKeys.CORES, 8).build(), snapshot(2, -1, 16 * GIB, 16 * GIB));
      placed(l.tryReserve(new Resources(0, 8000)));
    }

    @Test
    void aTaskAskingForNoCoresAlwaysFitsOnCores() {
      HostBudget l = budget(unlimited().build(), snapshot(2, -1, 16 * GIB, 16 * GIB));
      placed(l.tryReserve(new Resources(0, 2000)));
      for (int i = 0; i < 50; i++) {
        placed(l.tryReserve(new Resources(0, 0)));
      }
    }

    @Test
    void aTaskAskingForNoCoresFitsEvenWhenRunningTasksHoldMoreThanTheCapacity() {
      // Tasks launched under a larger core count (e.g. the probe now reports fewer CPUs) hold 4 of 2 cores.
      HostBudget l = budget(unlimited().build(), snapshot(2, -1, 16 * GIB, 16 * GIB),
          Map.of(TaskId.of("a"), launch(-5, 0, 2000), TaskId.of("b"), launch(-5, 0, 2000)));
      Refusal r = onlyRefusal(l.tryReserve(new Resources(0, 1)));
      assertThat(r.free()).as("free cores are never reported below zero").isZero();
      assertThat(r.reserved()).isEqualTo(4000);
      placed(l.tryReserve(new Resources(0, 0)));
    }

    @Test
    void coresAreCheckedBeforeMemory() {
      HostBudget l = budget(unlimited().build(), snapshot(1, -1, 1 * GIB, 1 * GIB));
      Refusal r = onlyRefusal(l.tryReserve(new Resources(2 * GIB, 2000)));
      assertThat(r.resource()).isEqualTo(Resource.CPUS);
    }

    @Test
    void aCpuRefusalReservesNoMemory() {
      HostBudget l = budget(unlimited().build(), snapshot(1, -1, 4 * GIB, 4 * GIB));
      onlyRefusal(l.tryReserve(new Resources(1 * GIB, 2000)));
      assertThat(l.usableMemory()).isEqualTo(4 * GIB);
      placed(l.tryReserve(new Resources(4 * GIB, 1000)));
    }
  }

  @Nested
  class MaxProcess {

    @Test
    void theCapCountsRunningTasksAndThoseAdmittedThisPass() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.MAX_PROCESS, 3).build();
      HostBudget l = budget(c, memorySnapshot(16 * GIB, 16 * GIB),
          Map.of(TaskId.of("a"), launch(-1, 0, 0)));
      assertThat(l.globalRefusal()).as("1 of 3 running").isEmpty();
      placed(l.tryReserve(mem(0)));
      assertThat(l.globalRefusal()).as("2 of 3").isEmpty();
      placed(l.tryReserve(mem(0)));
      Refusal r = l.globalRefusal().orElseThrow(() -> new AssertionError("3 of 3 must block"));
      assertThat(r.resource()).isEqualTo(Resource.PROCESSES);
      assertThat(r.device()).isEqualTo(HostBudget.HOST);
      assertThat(r.reserved()).as("processes running").isEqualTo(3);
      assertThat(r.free()).isZero();
      assertThat(r.rule()).isEqualTo("scheduler.max-process");
    }

    @Test
    void zeroMeansUnlimited() {
      HostBudget l = budget(unlimited().set(SchedulerKeys.MAX_PROCESS, 0).build(), memorySnapshot(16 * GIB, 16 * GIB));
      for (int i = 0; i < 1000; i++) {
        placed(l.tryReserve(mem(0)));
      }
      assertThat(l.globalRefusal()).isEmpty();
    }

    @Test
    void moreRunningThanTheCapStillBlocks() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.MAX_PROCESS, 1).build();
      HostBudget l = budget(c, memorySnapshot(16 * GIB, 16 * GIB),
          Map.of(TaskId.of("a"), launch(-1, 0, 0), TaskId.of("b"), launch(-1, 0, 0)));
      assertThat(l.globalRefusal()).get().extracting(Refusal::reserved).isEqualTo(2L);
    }
  }

  /** The CPU gate counts only utilization that Berth's own running tasks do not explain. */
  @Nested
  class CpuUtilization {

    private SchedulerConfig gate(double limit) {
      return unlimited().set(SchedulerKeys.CPU_UTILIZATION_LIMIT, limit).build();
    }

    @Test
    void aBusyHostWithNoBerthTasksBlocksAtTheLimit() {
      HostBudget l = budget(gate(0.5), snapshot(4, 0.75, 16 * GIB, 16 * GIB));
      Refusal r = l.globalRefusal().orElseThrow(() -> new AssertionError("75% foreign load >= 50% limit"));
      assertThat(r.resource()).isEqualTo(Resource.CPU_UTILIZATION);
      assertThat(r.asked()).as("the limit in permille").isEqualTo(500);
      assertThat(r.free()).as("the foreign reading in permille").isEqualTo(750);
      assertThat(r.rule()).isEqualTo("utilization-limit.cpu");
    }

    @Test
    void utilizationExplainedByBerthsTasksDoesNotBlock() {
      // 4 CPUs at 75%: Berth's 2 cores explain 50%, leaving 25% foreign, under the 50% limit.
      HostBudget l = budget(gate(0.5), snapshot(4, 0.75, 16 * GIB, 16 * GIB),
          Map.of(TaskId.of("r"), launch(-10, 0, 2000)));
      assertThat(l.globalRefusal()).isEmpty();
    }

    @Test
    void tasksLaunchedAfterTheReadingExplainNoneOfIt() {
      HostBudget l = budget(gate(0.5), snapshot(4, 0.75, 16 * GIB, 16 * GIB),
          Map.of(TaskId.of("r"), launch(+1, 0, 2000)));
      assertThat(l.globalRefusal()).get().extracting(Refusal::free).isEqualTo(750L);
    }

    @Test
    void theBerthShareIsOfLogicalCpusEvenWhenSchedulerCoresIsSet() {
      // cores=2 on an 8-CPU host: 2 Berth cores explain 2/8 = 25%; 60% - 25% = 35% < 50%.
      SchedulerConfig c = unlimited().set(SchedulerKeys.CORES, 2).set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5).build();
      HostBudget l = budget(c, snapshot(8, 0.6, 16 * GIB, 16 * GIB), Map.of(TaskId.of("r"), launch(-1, 0, 2000)));
      assertThat(l.globalRefusal()).isEmpty();
      HostBudget busier = budget(c, snapshot(8, 0.75, 16 * GIB, 16 * GIB), Map.of(TaskId.of("r"), launch(-1, 0, 2000)));
      assertThat(busier.globalRefusal()).as("75%% - 25%% = 50%% >= 50%%").get()
          .extracting(Refusal::free).isEqualTo(500L);
    }

    @ParameterizedTest(name = "utilization {0} with limit 0.5 blocks: {1}")
    @CsvSource({"0.499, false", "0.5, true", "0.501, true", "0, false", "1, true"})
    void theLimitIsInclusive(double utilization, boolean blocks) {
      HostBudget l = budget(gate(0.5), snapshot(4, utilization, 16 * GIB, 16 * GIB));
      assertThat(l.globalRefusal().isPresent())
          .as("foreign utilization %s against limit 0.5", utilization)
          .isEqualTo(blocks);
    }

    @Test
    void moreBerthCoresThanTheReadingNeverMakesForeignLoadNegative() {
      HostBudget l = budget(gate(0.1), snapshot(4, 0.2, 16 * GIB, 16 * GIB),
          Map.of(TaskId.of("r"), launch(-1, 0, 4000)));
      assertThat(l.globalRefusal()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(doubles = {-1, Double.NaN, -0.5})
    void anUnknownUtilizationNeverBlocks(double unknown) {
      HostBudget l = budget(gate(0.1), snapshot(4, unknown, 16 * GIB, 16 * GIB));
      assertThat(l.globalRefusal()).isEmpty();
    }

    @Test
    void aLimitOfOneDisablesTheGate() {
      HostBudget l = budget(gate(1.0), snapshot(4, 1.0, 16 * GIB, 16 * GIB));
      assertThat(l.globalRefusal()).isEmpty();
    }

    @Test
    void theProcessCapIsReportedBeforeTheCpuGate() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.MAX_PROCESS, 1)
          .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5).build();
      HostBudget l = budget(c, snapshot(4, 1.0, 16 * GIB, 16 * GIB), Map.of(TaskId.of("r"), launch(+1, 0, 0)));
      assertThat(l.globalRefusal()).get().extracting(Refusal::resource).isEqualTo(Resource.PROCESSES);
    }
  }

  /** impossible(): refusals that hold even on an idle host. */
  @Nested
  class Impossible {

    @Test
    void moreCoresThanTheCapacityCanNeverBePlaced() {
      HostBudget l = budget(unlimited().build(), snapshot(4, -1, 16 * GIB, 1 * GIB));
      Refusal r = l.impossible(new Resources(0, 4001)).orElseThrow();
      assertThat(r.resource()).isEqualTo(Resource.CPUS);
      assertThat(r.asked()).isEqualTo(4001);
      assertThat(r.free()).isEqualTo(4000);
      assertThat(r.rule()).isEqualTo("logical CPUs of the host");
      assertThat(l.impossible(new Resources(0, 4000))).as("exactly the capacity is possible").isEmpty();
    }

    @Test
    void moreCoresThanSchedulerCoresNamesTheSetting() {
      HostBudget l = budget(unlimited().set(SchedulerKeys.CORES, 2).build(), snapshot(32, -1, 16 * GIB, 16 * GIB));
      assertThat(l.impossible(new Resources(0, 3000))).get().extracting(Refusal::rule).isEqualTo("scheduler.cores");
    }

    @Test
    void memoryBeyondTotalMinusTheUtilizationFloorCanNeverBePlaced() {
      // total 16 GiB, limit 0.75 -> floor 4 GiB (remain 1 GiB is smaller): at most 12 GiB ever.
      SchedulerConfig c = unlimited().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.75)
          .set(SchedulerKeys.REMAIN_MEMORY, 1 * GIB).build();
      HostBudget l = budget(c, memorySnapshot(16 * GIB, 1 * GIB));
      assertThat(l.impossible(mem(12 * GIB))).as("possible on an idle host, even if not now").isEmpty();
      Refusal r = l.impossible(mem(12 * GIB + 1)).orElseThrow();
      assertThat(r.resource()).isEqualTo(Resource.MEMORY);
      assertThat(r.free()).isEqualTo(12 * GIB);
      assertThat(r.rule()).isEqualTo("utilization-limit.memory");
    }

    @Test
    void memoryBeyondTotalMinusTheRemainLimitCanNeverBePlaced() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.9)
          .set(SchedulerKeys.REMAIN_MEMORY, 6 * GIB).build();
      HostBudget l = budget(c, memorySnapshot(16 * GIB, 16 * GIB));
      assertThat(l.impossible(mem(10 * GIB))).isEmpty();
      assertThat(l.impossible(mem(10 * GIB + 1))).get().extracting(Refusal::rule).isEqualTo("remain-limit.memory");
    }

    @Test
    void aRemainLimitAboveTotalMemoryMakesEveryTaskImpossible() {
      SchedulerConfig c = unlimited().set(SchedulerKeys.REMAIN_MEMORY, 4_000_000_000L).build();
      HostBudget l = budget(c, memorySnapshot(2 * GIB, 2 * GIB));
      Refusal r = l.impossible(mem(0)).orElseThrow(() -> new AssertionError("no admission could ever leave 4 GB free"));
      assertThat(r.free()).as("clamped at zero").isZero();
    }

    @Test
    void runningTasksDoNotMakeARequestImpossible() {
      HostBudget l = budget(unlimited().build(), snapshot(2, -1, 4 * GIB, 0),
          Map.of(TaskId.of("r"), launch(-1, 4 * GIB, 2000)));
      assertThat(l.impossible(new Resources(4 * GIB, 2000))).isEmpty();
    }
  }

  @Test
  void aRefusalFromTheBudgetDescribesItselfForPeople() {
    SchedulerConfig c = unlimited().set(SchedulerKeys.REMAIN_MEMORY, 4 * GIB).build();
    HostBudget l = budget(c, memorySnapshot(16 * GIB, 8 * GIB), Map.of(TaskId.of("r"), launch(-1, 2 * GIB, 1000)));
    Refusal r = onlyRefusal(l.tryReserve(mem(3 * GIB)));
    assertThat(r.describe())
        .isEqualTo("memory on host: asked 3 GiB, free 2 GiB (2 GiB reserved by Berth) [remain-limit.memory]");
  }

  @Test
  void aPlacementIsOnTheCpuWithExactlyWhatWasAsked() {
    HostBudget l = budget(unlimited().build(), snapshot(4, -1, 16 * GIB, 16 * GIB));
    Placement p = placed(l.tryReserve(new Resources(1536 * MIB, 1500)));
    assertThat(p).isEqualTo(new Placement("cpu", 1536 * MIB, 1500, 0));
  }

  @Test
  void theBudgetDoesNotChangeTheRunningMapOrTheSnapshot() {
    SortedMap<TaskId, TaskEvent.Launched> running = new TreeMap<>(Map.of(TaskId.of("r"), launch(-1, GIB, 1000)));
    HostSnapshot s = snapshot(4, 0.5, 16 * GIB, 8 * GIB, Map.of(TaskId.of("r"), 10L));
    HostBudget l = HostBudget.of(unlimited().build(), s, running);
    l.tryReserve(new Resources(GIB, 1000));
    assertThat(running).containsOnlyKeys(TaskId.of("r"));
    assertThat(s.availableMemoryBytes()).isEqualTo(8 * GIB);
    assertThat(Optional.of(l.usableMemory()))
        .as("8 GiB available - (1 GiB - 10 B) outstanding - 1 GiB admitted")
        .contains(6 * GIB + 10);
  }
}
