package dev.berth.report;

import static dev.berth.report.Escape.html;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.Totals;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code report.html}: one self-contained page (inline style sheet and SVG, no script, nothing fetched) with
 * the run's status and totals, the sweep ranked by its objective, per group the successes and the failures
 * with links to their logs, what the tasks used against what they reserved (when it was measured), a timeline
 * of every attempt per device, and the memory reserved over time.
 *
 * <p>Every value that comes from the run (names, ids, params, results, messages) is HTML-escaped. The page is
 * also well-formed XML, so it can be checked or post-processed with an XML parser.
 */
public final class HtmlReport {

  private HtmlReport() {}

  /** Renders the page. A pure function of its arguments: it reads no clock and no file. */
  public static String render(RunReport report, HtmlOptions options) {
    return renderWith(report, options, ReportViews.of(report, options.results().byTask(), options.objective()));
  }

  /** The page, with the parts it shares with the Markdown report made already from the same results. */
  static String renderWith(RunReport report, HtmlOptions options, ReportViews views) {
    Map<String, Map<String, Object>> results = options.results().byTask();
    String title = options.title() != null ? options.title() : report.run();
    SweepTable sweep = views.sweep();
    RunCharts charts = RunCharts.of(report);
    StringBuilder h = new StringBuilder(32_768);
    h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>")
        .append("<title>").append(html(title)).append(" · ").append(report.status()).append(" · Berth</title>")
        .append("<style>").append(Style.CSS).append("</style></head><body><main>");
    header(h, report, title, sweep, charts.memory(), options.results().warnings());
    nav(h, report, sweep, charts);
    if (!sweep.isEmpty()) {
      HtmlTables.sweep(h, sweep, views.unstarted());
    }
    List<GroupReport> groups = report.groups();
    for (int i = 0; i < groups.size(); i++) {
      HtmlTables.group(h, views.groups().get(i), "group-" + (i + 1), results, options.logs());
    }
    if (EfficiencyTables.shown(report)) {
      EfficiencyTables.html(h, report.efficiency(), views.efficiencyRows());
    }
    if (ClusterJobs.shown(report)) {
      ClusterJobs.html(h, report);
    }
    HtmlCharts.all(h, charts);
    h.append("<footer>Run ").append(html(report.run())).append(" · report of Berth · times in UTC")
        .append("</footer></main></body></html>\n");
    return h.toString();
  }

  private static void header(
      StringBuilder h, RunReport r, String title, SweepTable sweep, MemoryChart memory, List<String> warnings) {
    String status = r.status().name();
    h.append("<header><p class=\"eyebrow\">Berth run report</p><h1>").append(html(title))
        .append(" <span class=\"").append(Palette.badge(status)).append("\">").append(status).append("</span></h1>");
    h.append("<dl class=\"facts\">");
    if (!title.equals(r.run())) {
      fact(h, "run", html(r.run()));
    }
    if (r.startedAt() != null) {
      fact(h, "started", time(r.startedAt()));
    }
    fact(h, "ended", r.finishedAt() == null ? "still running" : time(r.finishedAt()));
    Duration took = Summary.took(r);
    if (took != null) {
      fact(h, "took", Formats.duration(took));
    }
    h.append("</dl><div class=\"cards\">");
    Totals t = r.totals();
    card(h, "", t.total(), "tasks");
    card(h, "ok", t.succeeded(), "succeeded");
    card(h, t.failed() > 0 ? "bad" : "", t.failed(), "failed");
    optionalCard(h, t.timedOut(), "timed out");
    optionalCard(h, t.cancelled(), "cancelled");
    optionalCard(h, t.unreachable(), "unreachable");
    optionalCard(h, t.running(), "running");
    optionalCard(h, t.interrupted(), "interrupted");
    optionalCard(h, t.pending(), "pending");
    h.append("<div class=\"card\"><div class=\"n\">").append(html(Formats.bytes(memory.series().get(0).peak())))
        .append("</div><div class=\"l\">peak reserved memory</div></div></div>");
    sweep.best().ifPresent(best -> {
      String key = sweep.objective().key();
      h.append("<div class=\"callout\">Best ").append(html(key)).append(": <strong>")
          .append(html(Formats.value(best.results().get(key)))).append("</strong> from <code>")
          .append(html(best.taskId())).append("</code>");
      if (!best.params().isEmpty()) {
        StringBuilder p = new StringBuilder();
        best.params().forEach((k, v) -> p.append(p.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        h.append(" (").append(html(p.toString())).append(")");
      }
      h.append("</div>");
    });
    if (!warnings.isEmpty()) {
      h.append("<div class=\"warnings\"><strong>Results that could not be read</strong><ul>");
      warnings.forEach(w -> h.append("<li>").append(html(w)).append("</li>"));
      h.append("</ul></div>");
    }
    if (!r.revisions().isEmpty()) {
      h.append("<div class=\"revisions\" id=\"revisions\"><strong>Spec revisions</strong><ul>");
      r.revisions().forEach(v -> h.append("<li>").append(time(v.at())).append(": ").append(html(v.summary()))
          .append("</li>"));
      h.append("</ul></div>");
    }
    h.append("</header>");
  }

  private static void nav(StringBuilder h, RunReport r, SweepTable sweep, RunCharts charts) {
    h.append("<nav>");
    if (!sweep.isEmpty()) {
      h.append("<a href=\"#sweep\">Sweep</a>");
    }
    for (int i = 0; i < r.groups().size(); i++) {
      h.append("<a href=\"#group-").append(i + 1).append("\">").append(html(r.groups().get(i).name())).append("</a>");
    }
    if (EfficiencyTables.shown(r)) {
      h.append("<a href=\"#efficiency\">Efficiency</a>");
    }
    if (ClusterJobs.shown(r)) {
      h.append("<a href=\"#slurm-jobs\">Slurm jobs</a>");
    }
    h.append("<a href=\"#timeline\">Timeline</a>");
    if (charts.anyAttempt()) {
      h.append("<a href=\"#memory\">Memory</a>");
    }
    h.append("</nav>");
  }

  private static void fact(StringBuilder h, String name, String escapedValue) {
    h.append("<div><dt>").append(name).append("</dt><dd>").append(escapedValue).append("</dd></div>");
  }

  private static String time(java.time.Instant t) {
    return "<time datetime=\"" + Formats.iso(t) + "\">" + Formats.human(t) + "</time>";
  }

  private static void card(StringBuilder h, String tone, int n, String label) {
    h.append("<div class=\"card").append(tone.isEmpty() ? "" : " " + tone).append("\"><div class=\"n\">").append(n)
        .append("</div><div class=\"l\">").append(label).append("</div></div>");
  }

  private static void optionalCard(StringBuilder h, int n, String label) {
    if (n > 0) {
      card(h, "", n, label);
    }
  }
}
