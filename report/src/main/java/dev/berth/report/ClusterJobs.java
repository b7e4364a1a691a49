package dev.berth.report;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.ClusterReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The attempts' cluster jobs as the cluster's accounting recorded them (Slurm's sacct): a table of
 * them in {@code report.md} and {@code report.html}, and the last attempt's in columns of {@code
 * results.csv}. Shown only for runs with such accounting, so a local run's reports stay as they were.
 */
final class ClusterJobs {

  /** The columns {@code results.csv} adds for the last attempt's job. */
  static final List<String> CSV_COLUMNS = List.of("job_id", "job_state", "nodes", "queue_wait_ms", "max_rss_bytes");

  private ClusterJobs() {}

  /** Whether any attempt of the run has the cluster's accounting. */
  static boolean shown(RunReport r) {
    return ReportedAttempts.started(r).stream().anyMatch(s -> s.attempt().cluster() != null);
  }

  /**
   * The CSV cells of {@link #CSV_COLUMNS} for the task's last attempt: empty when it has no accounting, but for
   * the id of a job it has (an engine of a pool is no job).
   */
  static List<String> csvCells(TaskReport t) {
    AttemptReport last = ReportedAttempts.last(t);
    ClusterReport c = last == null ? null : last.cluster();
    if (c != null) {
      return List.of(c.jobId(), c.state(), c.nodes(), text(c.queueWaitMs()), text(c.maxRssBytes()));
    }
    boolean job = last != null && last.clusterJob() != null && ReportedAttempts.engine(last) == null;
    return List.of(job ? last.clusterJob() : "", "", "", "", "");
  }

  /** The columns of the table of jobs, in both reports. */
  private static final List<String> HEAD = List.of("task", "attempt", "job", "state", "nodes", "submitted",
      "queue wait", "started", "run time", "MaxRSS", "TotalCPU", "exit");

  /** The section of {@code report.md}: one row per attempt that has the cluster's accounting. */
  static void markdown(StringBuilder md, RunReport r) {
    md.append("\n## Slurm jobs\n\n");
    MarkdownTable table = new MarkdownTable(HEAD);
    rows(r).forEach(table::row);
    table.render(md);
  }

  /** The section of {@code report.html}, its anchor {@code slurm-jobs}: the rows of {@link #markdown}. */
  static void html(StringBuilder h, RunReport r) {
    h.append("<section id=\"slurm-jobs\"><h2>Slurm jobs</h2><p>Each attempt's job as sacct recorded it: its")
        .append(" run time is Slurm's start to end, the wait in the queue apart.</p>");
    HtmlTables.plain(h, "slurm-jobs", HEAD, rows(r));
    h.append("</section>");
  }

  private static List<List<String>> rows(RunReport r) {
    List<List<String>> rows = new ArrayList<>();
    for (ReportedAttempts.Started s : ReportedAttempts.started(r)) {
      AttemptReport a = s.attempt();
      ClusterReport c = a.cluster();
      if (c == null) {
        continue;
      }
      rows.add(List.of(s.task().id(), Integer.toString(a.number()), c.jobId(), c.state(), c.nodes(),
          Formats.iso(c.submittedAt()), duration(c.queueWaitMs()), Formats.iso(c.startedAt()), duration(c.elapsedMs()),
          c.maxRssBytes() == null ? "" : Formats.bytes(c.maxRssBytes()),
          c.totalCpuSeconds() == null ? "" : String.format(Locale.ROOT, "%.1f s", c.totalCpuSeconds()), c.exitCode()));
    }
    return rows;
  }

  private static String duration(Long millis) {
    return millis == null ? "" : Formats.duration(Duration.ofMillis(millis));
  }

  private static String text(Long value) {
    return value == null ? "" : Long.toString(value);
  }
}
