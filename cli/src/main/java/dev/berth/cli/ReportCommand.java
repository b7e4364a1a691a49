package dev.berth.cli;

import dev.berth.core.report.RunReport;
import dev.berth.report.ReportFiles;
import dev.berth.report.ReportOptions;
import dev.berth.report.WrittenReports;
import dev.berth.runtime.report.ReportWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code berth report WORKDIR}: rebuilds report.json, report.html, report.md and results.csv from the journal. */
@Command(name = "report", description = "Rebuild report.json, report.html, report.md and results.csv from a run's journal.")
final class ReportCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "WORKDIR", description = "The run's workdir.")
  Path workdir;

  @Spec CommandSpec command;

  /** Writes every report file of the run from its journal. */
  static WrittenReports rebuild(JournalView view, RunReport report) throws IOException {
    ReportWriter.write(report, view.layout().reportJson());
    return ReportFiles.writeAll(report, view.layout().runDir(),
        ReportOptions.defaults().withObjective(Notifications.objective(view.state().spec())));
  }

  @Override
  public Integer call() throws IOException {
    PrintWriter out = command.commandLine().getOut();
    JournalView view;
    try {
      view = JournalView.read(workdir);
    } catch (RunJournal.UserError e) {
      command.commandLine().getErr().println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    RunReport report = view.report(Instant.now());
    WrittenReports written = rebuild(view, report);
    written.warnings().forEach(w -> out.println("report: " + w));
    out.println(report.run() + ": " + report.status() + " - wrote " + view.layout().reportJson() + ", " + written.html()
        + ", " + written.markdown() + ", " + written.csv());
    return ExitCodes.OK;
  }
}
