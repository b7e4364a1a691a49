package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code results.csv}: one row per task, ready for a spreadsheet or a data frame.
 *
 * <p>Columns: {@code id, group, status, attempts, device, duration_ms} ({@code device}: where the last attempt
 * ran, {@code cpu} or a GPU), then one per matrix parameter (the union over
 * tasks, sorted), then one per result key (the union, sorted). A parameter whose name is one of the fixed
 * columns is written {@code param.<name>}; a result key equal to a column before it is written
 * {@code result.<key>}, so every header is unique. {@code duration_ms} is the sum of the task's ended
 * attempts, retries included, empty when none ended; a cluster's job runs from its start to its end by the
 * cluster's accounting, without its wait in the queue. A run with such accounting (Slurm's sacct) has, after
 * {@code duration_ms}, the last attempt's {@code job_id, job_state, nodes, queue_wait_ms, max_rss_bytes}
 * ({@link ClusterJobs}). RFC 4180: CRLF line ends, fields quoted when they hold a
 * comma, a quote or a line break; cells are made safe for spreadsheets ({@link Escape#csv}).
 */
public final class CsvResults {

  private static final List<String> FIXED = List.of("id", "group", "status", "attempts", "device", "duration_ms");
  private static final String CRLF = "\r\n";

  private CsvResults() {}

  /**
   * Renders the CSV text.
   *
   * @param resultsByTask result values by task id, e.g. {@link TaskResults#byTask()}
   */
  public static String render(RunReport report, Map<String, ? extends Map<String, ?>> resultsByTask) {
    Set<String> params = new TreeSet<>();
    Set<String> keys = new TreeSet<>();
    for (GroupReport g : report.groups()) {
      for (TaskReport t : g.tasks()) {
        if (t.params() != null) {
          params.addAll(t.params().keySet());
        }
        keys.addAll(Values.resultsOf(resultsByTask, t.id()).keySet());
      }
    }
    boolean jobs = ClusterJobs.shown(report);
    List<String> fixed = new ArrayList<>(FIXED);
    if (jobs) {
      fixed.addAll(ClusterJobs.CSV_COLUMNS);
    }
    List<String> header = new ArrayList<>(fixed);
    for (String p : params) {
      header.add(fixed.contains(p) ? "param." + p : p);
    }
    for (String k : keys) {
      header.add(header.contains(k) ? "result." + k : k);
    }
    StringBuilder out = new StringBuilder();
    line(out, header);
    for (GroupReport g : report.groups()) {
      for (TaskReport t : g.tasks()) {
        List<String> row = new ArrayList<>();
        Duration d = ReportedAttempts.runTime(t);
        row.add(t.id());
        row.add(t.group());
        row.add(t.status().name());
        row.add(Integer.toString(t.attempts().size()));
        row.add(ReportedAttempts.device(t));
        row.add(d == null ? "" : Long.toString(d.toMillis()));
        if (jobs) {
          row.addAll(ClusterJobs.csvCells(t));
        }
        for (String p : params) {
          row.add(t.params() == null ? "" : t.params().getOrDefault(p, ""));
        }
        Map<String, ?> r = Values.resultsOf(resultsByTask, t.id());
        for (String k : keys) {
          row.add(Formats.value(r.get(k)));
        }
        line(out, row);
      }
    }
    return out.toString();
  }

  private static void line(StringBuilder out, List<String> fields) {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(Escape.csv(fields.get(i)));
    }
    out.append(CRLF);
  }
}
