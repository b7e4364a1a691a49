package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the HTML and Markdown reports both show of a run, each part a walk over every task: made once
 * when both are written, so a run of 100,000 tasks is walked once for them, not once per report.
 *
 * @param sweep the sweep table, ranked by the objective
 * @param unstarted ids of the pending tasks that never started ({@link Unstarted})
 * @param groups each group's view, in the run's order
 * @param efficiencyRows the efficiency section's row per measured task, empty when the section is not shown
 */
record ReportViews(SweepTable sweep, Set<String> unstarted, List<GroupView> groups, List<List<String>> efficiencyRows) {

  static ReportViews of(RunReport report, Map<String, ? extends Map<String, ?>> results, Objective objective) {
    List<GroupView> groups = new ArrayList<>();
    for (GroupReport g : report.groups()) {
      groups.add(GroupView.of(g, results));
    }
    List<List<String>> efficiency =
        EfficiencyTables.shown(report) ? EfficiencyTables.tasks(report.efficiency()) : List.of();
    return new ReportViews(
        SweepTable.of(report, results, objective), Unstarted.ids(report), List.copyOf(groups), efficiency);
  }
}
