package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static dev.berth.core.scheduling.SchedulingFixtures.at;
import static dev.berth.core.scheduling.SchedulingFixtures.group;
import static dev.berth.core.scheduling.SchedulingFixtures.host;
import static dev.berth.core.scheduling.SchedulingFixtures.id;
import static dev.berth.core.scheduling.SchedulingFixtures.startedRun;
import static dev.berth.core.scheduling.SchedulingFixtures.unlimited;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** An attempt is out of memory only on evidence, and the next reservation follows what was measured. */
class OomEvidenceTest {

  private static final long MIB = 1L << 20;
  private static final SchedulerConfig CONFIG = unlimited().build();
  private static final HostSnapshot EIGHT_GIB = host(T0, 8, 8 * GIB, 8 * GIB);
  private final Scheduler scheduler = new Scheduler(CONFIG);
  private final Attempts attempts = new Attempts(CONFIG);

  private static MeasuredUsage peak(long bytes) {
    return new MeasuredUsage(OptionalLong.of(bytes), OptionalDouble.of(1.0), OptionalLong.empty(), true);
  }

  private RunState running(TaskSpec.Builder task) {
    RunState s = startedRun(CONFIG, false, group("g", task));
    SchedulingFixtures.pass(scheduler, s, EIGHT_GIB, at(0));
    return s;
  }

  private TaskEvent.Ended end(RunState s, int code, String stderr, MeasuredUsage usage, Instant at) {
    TaskEvent.Ended e = attempts.ended(s.task(id("a")), at, code, Optional.empty(), stderr, Optional.empty(), usage);
    s.apply(id("a"), e);
    return e;
  }

  private static TaskSpec.Builder task(long memory) {
    return TaskSpec.builder("a", "g").command("run").cpus(1).memoryBytes(memory);
  }

  @Test
  void aBareSigkillIsAKillNotAnOutOfMemoryDeath() {
    RunState s = running(task(GIB));

    TaskEvent.Ended e = end(s, 137, "", peak(100 * MIB), at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.KILLED);
    assertThat(e.target()).as("retries: 0").isEqualTo(TaskState.FAILED);
    assertThat(e.usage()).isEqualTo(peak(100 * MIB));
  }

  @Test
  void aSigkillAfterTheMeasuredPeakReachedTheReservationIsAHostOom() {
    RunState s = running(task(GIB));

    TaskEvent.Ended e = end(s, 137, "", peak(GIB + MIB), at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.HOST_OOM);
    assertThat(e.target()).isEqualTo(TaskState.READY);
  }

  @Test
  void aPlainFailureIsNeverAnOutOfMemoryDeathWhateverWasMeasured() {
    RunState s = running(task(GIB));

    TaskEvent.Ended e = end(s, 2, "Traceback\nValueError: bad input\n", peak(4 * GIB), at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void aMemoryErrorForAnAllocationOutOfAllProportionWithWhatTheTaskUsedIsAPlainFailure() {
    RunState s = running(task(GIB));

    TaskEvent.Ended e = end(s, 1, "    x = bytearray(10**15)\nMemoryError\n", peak(9 * MIB), at(1));

    assertThat(e.outcome()).as("a bigger reservation would not help").isEqualTo(Outcome.FAILED);
    assertThat(e.target()).isEqualTo(TaskState.FAILED);
  }

  @Test
  void aMemoryErrorAfterTheTaskFilledItsReservationIsAHostOom() {
    RunState s = running(task(GIB));

    TaskEvent.Ended e = end(s, 1, "MemoryError\n", peak(900 * MIB), at(1));

    assertThat(e.outcome()).isEqualTo(Outcome.HOST_OOM);
    assertThat(e.usage().peakHostMemoryBytes()).hasValue(900 * MIB);
  }

  @Test
  void theMeasuredPeakSetsTheNextReservationWhenItIsAboveTheUsualGrowth() {
    RunState s = running(task(GIB));
    end(s, 1, "MemoryError\n", peak(3 * GIB), at(1));

    Decisions d = SchedulingFixtures.pass(scheduler, s, EIGHT_GIB, at(2));

    assertThat(d.starts()).singleElement().satisfies(start ->
        assertThat(start.placement().memoryBytes()).as("1.2 x 3 GiB beats 1.5 x 1 GiB")
            .isEqualTo((long) Math.ceil(3 * GIB * Attempts.PEAK_HEADROOM)));
  }

  @Test
  void withoutAMeasuredPeakTheReservationGrowsByTheOomGrowthFactor() {
    RunState s = running(task(GIB));
    end(s, 1, "MemoryError\n", MeasuredUsage.NONE, at(1));

    Decisions d = SchedulingFixtures.pass(scheduler, s, EIGHT_GIB, at(2));

    assertThat(d.starts()).singleElement().satisfies(start ->
        assertThat(start.placement().memoryBytes()).isEqualTo(GIB * 3 / 2));
  }

  @Test
  void aTaskThatRanOutOfMemoryWithAllTheMachineHasFailsAtOnceInsteadOfRetryingTheSameReservation() {
    RunState s = running(task(6 * GIB));
    end(s, 1, "MemoryError\n", peak(7 * GIB), at(1));
    Decisions second = SchedulingFixtures.pass(scheduler, s, EIGHT_GIB, at(2));
    assertThat(second.starts()).singleElement().satisfies(start ->
        assertThat(start.placement().memoryBytes()).as("capped at the machine").isEqualTo(8 * GIB));
    end(s, 1, "MemoryError\n", peak(8 * GIB), at(3));

    Decisions third = SchedulingFixtures.pass(scheduler, s, EIGHT_GIB, at(4));

    assertThat(third.starts()).isEmpty();
    assertThat(s.task(id("a")).state()).isEqualTo(TaskState.FAILED);
    assertThat(third.actions()).singleElement().satisfies(fail -> assertThat(((Decision.Fail) fail).reason())
        .isEqualTo("ran out of host memory with 8 GiB reserved, the most this machine can give;"
            + " another attempt would end the same way"));
  }

  @Test
  void aCgroupOrClusterMemoryKillIsAHostOomCarryingItsMeasurement() {
    RunState s = running(task(GIB));

    TaskEvent.Ended e = attempts.ended(s.task(id("a")), at(1), 137, Optional.empty(), "",
        Optional.of(new ClusterVerdict(ClusterVerdict.Kind.HOST_OOM, "the cgroup's OOM killer ended it")), peak(GIB));

    assertThat(e.outcome()).isEqualTo(Outcome.HOST_OOM);
    assertThat(e.usage()).isEqualTo(peak(GIB));
  }

  @Test
  void anOrdinaryRetryKeepsWhatTheAttemptWasMeasuredToUse() {
    RunState s = running(task(GIB).set(TaskKeys.RETRIES, 1));

    TaskEvent.Ended e = end(s, 3, "", peak(5 * MIB), at(1));

    assertThat(e.target()).isEqualTo(TaskState.READY);
    assertThat(e.usage()).isEqualTo(peak(5 * MIB));
  }
}
