package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code report.md}: the run as GitHub-flavoured Markdown, for pasting into notes or issues. Every value from
 * the run is escaped so that it cannot end a table cell or turn into markup; line breaks in cells become
 * {@code <br>} and messages are cut to {@value #MAX_MESSAGE} characters (the HTML report has them whole).
 */
public final class MarkdownReport {

  /** Longest message kept in a table cell. */
  public static final int MAX_MESSAGE = 300;

  private MarkdownReport() {}

  /** The report without task results or sweep ranking. */
  public static String render(RunReport report) {
    return render(report, TaskResults.empty(), null);
  }

  /**
   * The report with task results in the success tables and, when the run has matrix tasks, a sweep section.
   *
   * @param objective what ranks the sweep, or null to keep submission order
   */
  public static String render(RunReport report, TaskResults results, Objective objective) {
    return renderWith(report, results, ReportViews.of(report, results.byTask(), objective));
  }

  /** The report, with the parts it shares with the HTML report made already from the same results. */
  static String renderWith(RunReport report, TaskResults results, ReportViews views) {
    StringBuilder md = new StringBuilder();
    md.append("# Berth run ").append(Escape.markdown(report.run())).append(": ").append(report.status()).append("\n\n");
    md.append(summaryLine(report)).append("\n");
    if (!report.revisions().isEmpty()) {
      md.append("\n## Spec revisions\n\n");
      report.revisions().forEach(v -> md.append("- ").append(Formats.iso(v.at())).append(": ")
          .append(Escape.markdown(v.summary())).append('\n'));
    }
    SweepTable sweep = views.sweep();
    if (!sweep.isEmpty()) {
      md.append("\n## ").append(Escape.markdown(sweep.title())).append("\n\n");
      sweep(md, sweep, views.unstarted());
    }
    for (GroupView g : views.groups()) {
      group(md, g, results.byTask());
    }
    if (EfficiencyTables.shown(report)) {
      EfficiencyTables.markdown(md, report.efficiency(), views.efficiencyRows());
    }
    if (ClusterJobs.shown(report)) {
      ClusterJobs.markdown(md, report);
    }
    if (!results.warnings().isEmpty()) {
      md.append("\n## Notes\n\n");
      for (String w : results.warnings()) {
        md.append("- ").append(Escape.markdown(w)).append('\n');
      }
    }
    return md.toString();
  }

  private static String summaryLine(RunReport r) {
    List<String> parts = new ArrayList<>();
    parts.add(Escape.markdown(r.totals().describe()));
    if (r.startedAt() != null) {
      parts.add("started " + Formats.iso(r.startedAt()));
    }
    parts.add(r.finishedAt() == null ? "still running" : "ended " + Formats.iso(r.finishedAt()));
    if (Summary.took(r) != null) {
      parts.add("took " + Formats.duration(Summary.took(r)));
    }
    return String.join(" · ", parts);
  }

  private static void group(StringBuilder md, GroupView v, Map<String, ? extends Map<String, ?>> results) {
    GroupReport g = v.group();
    md.append("\n## Group ").append(Escape.markdown(g.name())).append(": ")
        .append(Summary.ratio(g.totals())).append(" succeeded\n");
    if (!v.succeeded().isEmpty()) {
      List<String> fixed = new ArrayList<>(List.of("task", "device", "attempts"));
      fixed.addAll(v.stageTimes() ? List.of("load time", "train time") : List.of("run time"));
      List<String> head = new ArrayList<>(List.of("task", "device"));
      head.addAll(unique(v.resultKeys(), fixed, "result."));
      head.addAll(v.stageTimes() ? List.of("load time", "train time") : List.of("run time"));
      head.add("attempts");
      md.append("\n**Succeeded**\n\n");
      MarkdownTable table = new MarkdownTable(head);
      for (TaskReport t : v.succeeded()) {
        Map<String, ?> r = Values.resultsOf(results, t.id());
        List<String> row = new ArrayList<>(List.of(t.id(), ReportedAttempts.placed(t)));
        for (String k : v.resultKeys()) {
          row.add(Formats.value(r.get(k)));
        }
        if (v.stageTimes()) {
          row.add(Formats.seconds(r.get(GroupView.LOAD_TIME)));
          row.add(Formats.seconds(r.get(GroupView.TRAIN_TIME)));
        } else {
          row.add(Formats.duration(ReportedAttempts.runTime(t)));
        }
        row.add(ReportedAttempts.count(t));
        table.row(row);
      }
      table.render(md);
    }
    if (!v.unsuccessful().isEmpty()) {
      md.append("\n**Not succeeded**\n\n");
      boolean tails = v.unsuccessful().stream().anyMatch(t -> !ReportedAttempts.stderrTail(t).isEmpty());
      List<String> head = new ArrayList<>(List.of("task", "status", "device", "last attempt", "attempts", "message"));
      if (tails) {
        head.add("stderr (last lines)");
      }
      MarkdownTable table = new MarkdownTable(head);
      for (TaskReport t : v.unsuccessful()) {
        List<String> row = new ArrayList<>(List.of(t.id(), t.status().name(), ReportedAttempts.placed(t), ReportedAttempts.outcome(t),
            ReportedAttempts.count(t), cut(ReportedAttempts.message(t))));
        if (tails) {
          row.add(cut(ReportedAttempts.stderrTail(t)));
        }
        table.row(row);
      }
      table.render(md);
    }
    if (!v.unstarted().isEmpty()) {
      md.append('\n').append(Escape.markdown(Unstarted.line(v.unstarted()))).append('\n');
    }
  }

  private static void sweep(StringBuilder md, SweepTable s, Set<String> unstartedIds) {
    boolean ranked = s.objective() != null; // without one the rows are in submission order, not a ranking
    List<String> fixed = List.of("#", "task", "group", "status");
    List<String> head = new ArrayList<>(ranked ? List.of("#", "task") : List.of("task"));
    boolean groups = s.spansGroups(); // once: it looks at every row
    if (groups) {
      head.add("group");
    }
    List<String> params = unique(s.paramNames(), fixed, "param.");
    head.addAll(params);
    List<String> taken = new ArrayList<>(fixed);
    taken.addAll(params);
    head.addAll(unique(s.resultKeys(), taken, "result."));
    head.add("status");
    MarkdownTable table = new MarkdownTable(head);
    int rank = 0;
    List<String> unstarted = new ArrayList<>();
    for (SweepTable.Row r : s.rows()) {
      if (unstartedIds.contains(r.taskId())) {
        unstarted.add(r.taskId());
        continue;
      }
      List<String> row = new ArrayList<>(ranked ? List.of(Integer.toString(++rank), r.taskId()) : List.of(r.taskId()));
      if (groups) {
        row.add(r.group());
      }
      for (String p : s.paramNames()) {
        row.add(r.params().getOrDefault(p, ""));
      }
      for (String k : s.resultKeys()) {
        row.add(Formats.value(r.results().get(k)));
      }
      row.add(r.status().name());
      table.row(row);
    }
    table.render(md);
    if (!unstarted.isEmpty()) {
      md.append('\n').append(Escape.markdown(Unstarted.line(unstarted))).append('\n');
    }
  }

  /** The names as column headers, each one that {@code taken} already has written with {@code prefix}. */
  private static List<String> unique(List<String> names, List<String> taken, String prefix) {
    return names.stream().map(n -> taken.contains(n) ? prefix + n : n).toList();
  }

  private static String cut(String message) {
    String m = message.strip();
    if (m.length() <= MAX_MESSAGE) {
      return m;
    }
    int end = Character.isHighSurrogate(m.charAt(MAX_MESSAGE - 1)) ? MAX_MESSAGE - 1 : MAX_MESSAGE;
    return m.substring(0, end) + "…";
  }
}
