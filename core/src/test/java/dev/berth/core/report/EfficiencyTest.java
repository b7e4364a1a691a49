package dev.berth.core.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.RunState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The efficiency report is a fold over the attempts: reserved x wall time against measured use. */
class EfficiencyTest {

  private static final long MIB = 1L << 20;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static RunState run(String... ids) {
    List<TaskSpec> specs = new java.util.ArrayList<>();
    for (String id : ids) {
      specs.add(TaskSpec.builder(id, "g").command("x").memoryBytes(1000 * MIB).params(Map.of("i", id))
          .template("t-{i}").build());
    }
    specs.add(TaskSpec.builder("solo", "g").command("x").memoryBytes(100 * MIB).build());
    return new RunState(new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(new GroupSpec("g", specs))));
  }

  /** One attempt of {@code seconds} reserving {@code reserved} MiB and 2 cores, ending with this usage. */
  private static void attempt(RunState state, String task, long reserved, double seconds, MeasuredUsage usage,
      List<Learned> learned) {
    TaskId id = TaskId.of(task);
    state.apply(id, new TaskEvent.Released(T0));
    state.apply(id, new TaskEvent.Launched(T0, 1, Placement.cpu(reserved * MIB, 2000), 1, false, learned));
    state.apply(id, new TaskEvent.Ended(T0.plusMillis((long) (seconds * 1000)), Outcome.SUCCEEDED, 0, null,
        TaskState.SUCCEEDED, usage));
  }

  private static MeasuredUsage used(long peakMib, double cpuSeconds) {
    return new MeasuredUsage(OptionalLong.of(peakMib * MIB), OptionalDouble.of(cpuSeconds), OptionalLong.empty(), true);
  }

  @Test
  void totalsSetReservedTimesWallAgainstThePeakHeldAndCpuUsed() {
    RunState state = run("a", "b");
    attempt(state, "a", 1000, 10, used(250, 5), List.of());
    attempt(state, "b", 500, 4, used(500, 8), List.of(new Learned(Learned.MEMORY, 500 * MIB, 1000 * MIB, 3, "")));
    attempt(state, "solo", 100, 1, MeasuredUsage.NONE, List.of());

    Efficiency e = Efficiency.of(state);

    assertThat(e.attempts()).isEqualTo(3);
    assertThat(e.measuredAttempts()).as("solo was not measured").isEqualTo(2);
    assertThat(e.memory().reserved()).isEqualTo((1000 * 10 + 500 * 4) * (double) MIB);
    assertThat(e.memory().used()).isEqualTo((250 * 10 + 500 * 4) * (double) MIB);
    assertThat(e.memory().wastedShare()).isCloseTo(7500.0 / 12000, within(1e-9));
    assertThat(e.cpu().reserved()).isEqualTo(2 * 10 + 2 * 4);
    assertThat(e.cpu().used()).isEqualTo(13);
  }

  @Test
  void eachTaskAndTemplateShowsRequestPeakWasteAndWhatWasLearned() {
    RunState state = run("a", "b", "c");
    attempt(state, "a", 1000, 1, used(100, 1), List.of());
    attempt(state, "b", 1000, 1, used(300, 1), List.of());
    attempt(state, "c", 360, 1, used(200, 1), List.of(new Learned(Learned.MEMORY, 360 * MIB, 1000 * MIB, 2, "")));

    Efficiency e = Efficiency.of(state);

    assertThat(e.tasks()).extracting(Efficiency.TaskUse::id).containsExactly("a", "b", "c");
    Efficiency.TaskUse c = e.tasks().get(2);
    assertThat(c.requestedMemoryBytes()).isEqualTo(360 * MIB);
    assertThat(c.peakMemoryBytes()).isEqualTo(200 * MIB);
    assertThat(c.wastedMemoryBytes()).isEqualTo(160 * MIB);
    assertThat(c.learned()).isEqualTo("memory 360 MiB learned from 2 tasks (declared 1000 MiB)");
    assertThat(e.tasks().get(0).learned()).isNull();
    assertThat(e.templates()).singleElement().satisfies(t -> {
      assertThat(t.template()).isEqualTo("t-{i}");
      assertThat(t.tasks()).isEqualTo(3);
      assertThat(t.largestRequestBytes()).isEqualTo(1000 * MIB);
      assertThat(t.p95PeakBytes()).isEqualTo(300 * MIB);
      assertThat(t.maxPeakBytes()).isEqualTo(300 * MIB);
    });
  }

  @Test
  void aRunWithNothingMeasuredHasNoRowsAndTheReportCarriesTheFold() {
    RunState state = run("a");
    attempt(state, "a", 1000, 1, MeasuredUsage.NONE, List.of());

    RunReport report = RunReport.of(state, T0, T0.plusSeconds(1), false, t -> "w/" + t.id());

    assertThat(report.efficiency().measuredAttempts()).isZero();
    assertThat(report.efficiency().tasks()).isEmpty();
    assertThat(report.efficiency().attempts()).isEqualTo(1);
  }
}
