package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.journal.SpecCodec;
import dev.berth.journal.SqliteJournal;
import dev.berth.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code berth report --efficiency WORKDIR} prints reserved against used from the run's journal. */
class EfficiencyReportTest {

  private static final long MIB = 1L << 20;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  /** A finished run of three matrix tasks declaring 1 GiB: two used 100 MiB, the third learned 120 MiB. */
  private Path journalled(boolean measured) throws Exception {
    Path spec = dir.resolve("s.yaml");
    Files.writeString(spec, """
        name: eff
        workdir: %s
        groups: [{name: g, tasks: [{id: "t-{i}", matrix: {i: [1, 2, 3]}, command: ["true"], memory: 1GiB}]}]
        """.formatted(dir.resolve("out")));
    RunSpec run = SpecLoader.load(spec, null, List.of());
    MeasuredUsage used = measured
        ? new MeasuredUsage(OptionalLong.of(100 * MIB), OptionalDouble.of(1.5), OptionalLong.empty(), true)
        : MeasuredUsage.NONE;
    try (SqliteJournal journal = SqliteJournal.create(dir.resolve("out/.berth/journal.db"))) {
      journal.start(run.name(), SpecCodec.encode(run), T0);
      for (int i = 1; i <= 3; i++) {
        TaskId id = TaskId.of("t-" + i);
        long reserved = i == 3 ? 120 * MIB : 1024 * MIB;
        List<Learned> learned = i == 3 ? List.of(new Learned(Learned.MEMORY, 120 * MIB, 1024 * MIB, 2, "")) : List.of();
        journal.append(id, new TaskEvent.Released(T0));
        journal.append(id, new TaskEvent.Launched(T0, 1, Placement.cpu(reserved, 1000), 10 + i, false, learned));
        journal.append(id, new TaskEvent.Ended(T0.plusSeconds(2), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED,
            used));
      }
      journal.finish(RunStatus.SUCCEEDED, T0.plusSeconds(3));
    }
    return dir.resolve("out");
  }

  @Test
  void itPrintsTotalsTemplatesAndTasksWithWhatWasLearned() throws Exception {
    CliRunner report = CliRunner.berth("report", "--efficiency", journalled(true).toString());

    assertThat(report.exitCode).as(report.err).isZero();
    assertThat(report.out).startsWith("Efficiency of run eff: 3 of 3 ended attempts measured")
        .contains("host memory", "Per template", "t-{i}", "Per task")
        .contains("memory 120 MiB learned from 2 tasks (declared 1 GiB)");
    assertThat(report.out).containsPattern("t-1\\s+1 GiB\\s+100 MiB\\s+924 MiB");
  }

  @Test
  void aRunWithNothingMeasuredSaysSo() throws Exception {
    CliRunner report = CliRunner.berth("report", "--efficiency", journalled(false).toString());

    assertThat(report.exitCode).isZero();
    assertThat(report.out.strip()).isEqualTo("eff: no attempt of this run was measured, so there is nothing to compare"
        + " yet");
  }
}
