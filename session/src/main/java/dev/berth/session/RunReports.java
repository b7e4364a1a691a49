package dev.berth.session;

import dev.berth.core.model.RunSpec;
import dev.berth.core.report.RunReport;
import dev.berth.report.Objective;
import dev.berth.report.ReportFiles;
import dev.berth.report.ReportOptions;
import dev.berth.report.WrittenReports;
import dev.berth.report.ReportJson;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The files a run's report is written to, all by the report module: {@code report.json} (the engine
 * has it written as the run ends), then {@code report.html}, {@code report.md} and {@code results.csv}
 * beside it, ranked by the spec's sweep objective.
 */
public final class RunReports {

  private RunReports() {}

  /** The spec's sweep objective in the report module's terms, or null. */
  public static Objective objective(RunSpec spec) {
    return spec.reporting().objectiveKey()
        .map(k -> spec.reporting().maximize() ? Objective.max(k) : Objective.min(k)).orElse(null);
  }

  /** Writes {@code report.html}, {@code report.md} and {@code results.csv} of a run that ended into {@code runDir}. */
  static WrittenReports writeBeside(RunReport report, Path runDir, RunSpec spec) throws IOException {
    return ReportFiles.writeAll(report, runDir, ReportOptions.defaults().withObjective(objective(spec)));
  }

  /** Writes every report file of the run from its journal, {@code report.json} included. */
  public static WrittenReports rebuild(JournalView view, RunReport report) throws IOException {
    ReportJson.write(report, view.layout().reportJson());
    return writeBeside(report, view.layout().runDir(), view.state().spec());
  }
}
