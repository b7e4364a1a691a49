package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
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

/**
 * {@code berth report WORKDIR}: rebuilds report.json, report.html, report.md and results.csv from the journal;
 * with {@code --efficiency}, prints what the run reserved against what its tasks used instead.
 */
final class ReportCommand implements BerthCommand {

  private static final Option EFFICIENCY = Option.flag("--efficiency", "Print what the run reserved against what"
      + " its tasks were measured to use (totals, per template, per task), like seff, instead of rebuilding the reports.");

  @Override
  public CommandSyntax syntax() {
    return CommandSyntax.describedAs("Rebuild report.json, report.html, report.md and results.csv from a run's journal.")
        .parameter(CommonArgs.WORKDIR).options(EFFICIENCY).build();
  }

  @Override
  public int run(Arguments args, PrintWriter out, PrintWriter err) throws IOException {
    Path workdir = args.path(CommonArgs.WORKDIR);
    boolean efficiency = args.flag(EFFICIENCY);
    JournalView view;
    try {
      view = JournalView.read(workdir);
    } catch (SessionException e) {
      err.println("berth: " + e.getMessage());
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
