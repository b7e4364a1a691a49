package dev.berth.cli;

import dev.berth.core.report.RunReport;
import dev.berth.report.EfficiencyTables;
import dev.berth.report.WrittenReports;
import dev.berth.session.JournalView;
import dev.berth.session.RunReports;
import dev.berth.session.SessionException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code berth report WORKDIR}: rebuilds report.json, report.html, report.md and results.csv from the journal;
 * with {@code --efficiency}, prints what the run reserved against what its tasks used instead.
 */
@Command(name = "report", description = "Rebuild report.json, report.html, report.md and results.csv from a run's journal.")
final class ReportCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "WORKDIR", description = "The run's workdir.")
  Path workdir;

  @Option(names = "--efficiency", description = "Print what the run reserved against what its tasks were measured"
      + " to use (totals, per template, per task), like seff, instead of rebuilding the reports.")
  boolean efficiency;

  @Spec CommandSpec command;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = command.commandLine().getOut();
    JournalView view;
    try {
      view = JournalView.read(workdir);
    } catch (SessionException e) {
      command.commandLine().getErr().println("berth: " + e.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    RunReport report = view.report(Instant.now());
    if (efficiency) {
      out.print(EfficiencyTables.shown(report) ? EfficiencyTables.text(report)
          : report.run() + ": no attempt of this run was measured, so there is nothing to compare yet\n");
      out.flush();
      return ExitCodes.OK;
    }
    WrittenReports written = RunReports.rebuild(view, report);
    written.warnings().forEach(w -> out.println("report: " + w));
    out.println(report.run() + ": " + report.status() + " - wrote " + view.layout().reportJson() + ", " + written.html()
        + ", " + written.markdown() + ", " + written.csv());
    return ExitCodes.OK;
  }
}
