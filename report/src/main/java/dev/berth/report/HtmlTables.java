package dev.berth.report;

import static dev.berth.report.Escape.html;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.TaskReport;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** The HTML tables: per group the successes and the failures (after fedflow's report), and the sweep. */
final class HtmlTables {

  private HtmlTables() {}

  static void group(StringBuilder h, GroupView v, String anchor, Map<String, ? extends Map<String, ?>> results,
      TaskLogs logs) {
    GroupReport g = v.group();
    String status = Summary.groupStatus(g);
    h.append("<section class=\"group\" id=\"").append(anchor).append("\">")
        .append("<div class=\"group-head\"><h2>").append(html(g.name())).append("</h2>")
        .append("<span class=\"").append(Palette.badge(status)).append("\">").append(status).append("</span>")
        .append("<span class=\"muted\">").append(html(g.totals().describe())).append("</span></div>");
    if (!v.succeeded().isEmpty()) {
      success(h, v, results, logs);
    }
    if (!v.unsuccessful().isEmpty()) {
      failures(h, v, logs);
    }
    if (!v.unstarted().isEmpty()) {
      h.append("<p class=\"muted unstarted\">").append(html(Unstarted.line(v.unstarted()))).append("</p>");
    }
    if (g.tasks().isEmpty()) {
      h.append("<p class=\"muted\">No tasks.</p>");
    }
    h.append("</section>");
  }

  private static void success(StringBuilder h, GroupView v, Map<String, ? extends Map<String, ?>> results,
      TaskLogs logs) {
    h.append("<h3>Succeeded <span class=\"count\">").append(v.succeeded().size()).append("</span></h3>")
        .append("<div class=\"scroll\"><table class=\"success\"><thead><tr><th>task</th>");
    List<Boolean> numeric = new ArrayList<>();
    for (String k : v.resultKeys()) {
      boolean n = numericColumn(v.succeeded(), k, results);
      numeric.add(n);
      h.append(n ? "<th class=\"num\">" : "<th>").append(html(k)).append("</th>");
    }
    h.append(v.stageTimes()
        ? "<th class=\"num\">load time</th><th class=\"num\">train time</th>"
        : "<th class=\"num\">run time</th>");
    h.append("<th class=\"num\">attempts</th><th>logs</th></tr></thead><tbody>");
    for (TaskReport t : v.succeeded()) {
      Map<String, ?> r = Values.resultsOf(results, t.id());
      h.append("<tr><td class=\"id\">").append(html(t.id())).append("</td>");
      for (int i = 0; i < v.resultKeys().size(); i++) {
        h.append(numeric.get(i) ? "<td class=\"num\">" : "<td>")
            .append(html(Formats.value(r.get(v.resultKeys().get(i))))).append("</td>");
      }
      if (v.stageTimes()) {
        h.append("<td class=\"num\">").append(html(Formats.seconds(r.get(GroupView.LOAD_TIME)))).append("</td>")
            .append("<td class=\"num\">").append(html(Formats.seconds(r.get(GroupView.TRAIN_TIME)))).append("</td>");
      } else {
        h.append("<td class=\"num\">").append(html(Formats.duration(ReportedAttempts.runTime(t)))).append("</td>");
      }
      h.append("<td class=\"num\">").append(ReportedAttempts.count(t)).append("</td><td class=\"logs\">");
      logs(h, t, logs);
      h.append("</td></tr>");
    }
    h.append("</tbody></table></div>");
  }

  private static void failures(StringBuilder h, GroupView v, TaskLogs logs) {
    h.append("<h3>Not succeeded <span class=\"count bad\">").append(v.unsuccessful().size()).append("</span></h3>")
        .append("<div class=\"scroll\"><table class=\"failures\"><thead><tr><th>task</th><th>status</th>")
        .append("<th>last attempt</th><th class=\"num\">attempts</th><th>message</th><th>logs</th></tr></thead><tbody>");
    for (TaskReport t : v.unsuccessful()) {
      String message = ReportedAttempts.message(t);
      h.append("<tr><td class=\"id\">").append(html(t.id())).append("</td>")
          .append("<td><span class=\"").append(Palette.badge(t.status().name())).append("\">")
          .append(t.status().name()).append("</span></td>")
          .append("<td class=\"outcome\">").append(html(ReportedAttempts.outcome(t))).append("</td>")
          .append("<td class=\"num\">").append(ReportedAttempts.count(t)).append("</td>")
          .append("<td class=\"message\">")
          .append(message.isBlank() ? "<span class=\"muted\">no message</span>" : "<pre>" + html(message.strip()) + "</pre>");
      String tail = ReportedAttempts.stderrTail(t);
      if (!tail.isEmpty()) {
        h.append("<pre class=\"tail\" title=\"the end of the last attempt's standard error\">").append(html(tail))
            .append("</pre>");
      }
      h.append("</td><td class=\"logs\">");
      logs(h, t, logs);
      h.append("</td></tr>");
    }
    h.append("</tbody></table></div>");
  }

  /** Links relative to the report, which sits in the run folder beside the group folders. */
  private static void logs(StringBuilder h, TaskReport t, TaskLogs logs) {
    boolean stdout = logs.hasStdout(t.id());
    boolean stderr = logs.hasStderr(t.id());
    if (t.attempts().isEmpty() || !stdout && !stderr) {
      h.append("<span class=\"muted\">").append(t.attempts().isEmpty() ? "none" : "no output").append("</span>");
      return;
    }
    String dir = Escape.urlSegment(t.group()) + "/" + Escape.urlSegment(t.id()) + "/";
    if (stdout) {
      h.append("<a href=\"").append(html(dir + TaskLogs.STDOUT)).append("\">stdout</a>");
    }
    if (stderr) {
      h.append(stdout ? " " : "").append("<a href=\"").append(html(dir + TaskLogs.STDERR)).append("\">stderr</a>");
    }
  }

  /** A table of text cells under {@code head}, in a scrolling box, each cell escaped. */
  static void plain(StringBuilder h, String cls, List<String> head, List<List<String>> rows) {
    h.append("<div class=\"scroll\"><table class=\"").append(cls).append("\"><thead><tr>");
    head.forEach(c -> h.append("<th>").append(html(c)).append("</th>"));
    h.append("</tr></thead><tbody>");
    for (List<String> r : rows) {
      h.append("<tr>");
      r.forEach(c -> h.append("<td>").append(html(c)).append("</td>"));
      h.append("</tr>");
    }
    h.append("</tbody></table></div>");
  }

  /** The sweep, without the rows of the tasks in {@code unstartedIds}, which one line counts. */
  static void sweep(StringBuilder h, SweepTable s, Set<String> unstartedIds) {
    String key = s.objective() == null ? null : s.objective().key();
    BigDecimal[] range = key == null ? null : range(s, key);
    h.append("<section id=\"sweep\"><h2>").append(html(s.title())).append("</h2>")
        .append("<div class=\"scroll\"><table class=\"sweep\"><thead><tr>")
        .append(key == null ? "" : "<th class=\"num\">#</th>").append("<th>task</th>");
    boolean groups = s.spansGroups(); // once: it looks at every row
    if (groups) {
      h.append("<th>group</th>");
    }
    for (String p : s.paramNames()) {
      h.append("<th class=\"param\">").append(html(p)).append("</th>");
    }
    for (String k : s.resultKeys()) {
      String header = s.paramNames().contains(k) ? "result." + k : k; // beside the matrix column of that name
      h.append("<th class=\"num").append(k.equals(key) ? " objective" : "").append("\">").append(html(header))
          .append("</th>");
    }
    h.append("<th>status</th></tr></thead><tbody>");
    int rank = 0;
    SweepTable.Row best = s.best().orElse(null);
    List<String> unstarted = new ArrayList<>();
    for (SweepTable.Row r : s.rows()) {
      if (unstartedIds.contains(r.taskId())) {
        unstarted.add(r.taskId());
        continue;
      }
      h.append(r == best ? "<tr class=\"best\">" : "<tr>");
      if (key != null) { // without an objective the rows are in submission order, not a ranking
        h.append("<td class=\"num rank\">").append(++rank).append("</td>");
      }
      h.append("<td class=\"id\">").append(html(r.taskId()))
          .append(r == best ? " <span class=\"pill\">best</span>" : "").append("</td>");
      if (groups) {
        h.append("<td>").append(html(r.group())).append("</td>");
      }
      for (String p : s.paramNames()) {
        h.append("<td class=\"param\">").append(html(r.params().getOrDefault(p, ""))).append("</td>");
      }
      for (String k : s.resultKeys()) {
        Object value = r.results().get(k);
        h.append("<td class=\"num").append(k.equals(key) ? " objective" : "").append("\">");
        h.append(html(Formats.value(value)));
        BigDecimal n = Values.number(value);
        if (k.equals(key) && range != null && n != null) {
          h.append("<span class=\"bar\" style=\"width:").append(barPercent(n, range, s.objective().goal()))
              .append("%\"></span>");
        }
        h.append("</td>");
      }
      h.append("<td><span class=\"").append(Palette.badge(r.status().name())).append("\">").append(r.status().name())
          .append("</span></td></tr>");
    }
    h.append("</tbody></table></div>");
    if (!unstarted.isEmpty()) {
      h.append("<p class=\"muted unstarted\">").append(html(Unstarted.line(unstarted))).append("</p>");
    }
    h.append("</section>");
  }

  /** The smallest and largest objective values, or null when some value is not a number. */
  private static BigDecimal[] range(SweepTable s, String key) {
    BigDecimal min = null;
    BigDecimal max = null;
    for (SweepTable.Row r : s.rows()) {
      Object v = r.results().get(key);
      if (v == null) {
        continue;
      }
      BigDecimal n = Values.number(v);
      if (n == null) {
        return null;
      }
      min = min == null || n.compareTo(min) < 0 ? n : min;
      max = max == null || n.compareTo(max) > 0 ? n : max;
    }
    return min == null ? null : new BigDecimal[] {min, max};
  }

  /**
   * A bar as long as the value is good: the worst value of the sweep gets a stub and the best the full width,
   * so close results still look different and a loss reads the same way as an accuracy.
   */
  static int barPercent(BigDecimal v, BigDecimal[] range, Objective.Goal goal) {
    BigDecimal spread = range[1].subtract(range[0]);
    if (spread.signum() == 0) {
      return 100;
    }
    BigDecimal fromWorst = goal == Objective.Goal.MAX ? v.subtract(range[0]) : range[1].subtract(v);
    double share = fromWorst.divide(spread, java.math.MathContext.DECIMAL64).doubleValue();
    return (int) Math.round(8 + 92 * Math.max(0, Math.min(1, share)));
  }

  private static boolean numericColumn(List<TaskReport> tasks, String key, Map<String, ? extends Map<String, ?>> results) {
    return tasks.stream()
        .map(t -> Values.resultsOf(results, t.id()).get(key))
        .filter(Objects::nonNull)
        .allMatch(v -> Values.number(v) != null);
  }
}
