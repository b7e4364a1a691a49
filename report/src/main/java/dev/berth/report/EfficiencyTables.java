package dev.berth.report;

import dev.berth.core.report.Efficiency;
import dev.berth.core.report.Efficiency.TaskUse;
import dev.berth.core.report.Efficiency.TemplateUse;
import dev.berth.core.report.Efficiency.Use;
import dev.berth.core.report.RunReport;
import dev.berth.core.units.ByteSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The efficiency section: what a run reserved against what its tasks were measured to use, as three
 * tables (totals, templates, tasks) rendered for {@code report.html}, {@code report.md} and the
 * terminal ({@code berth report --efficiency}) from the same rows. Every value taken from a task
 * (ids, templates, groups) is escaped for the format it goes into. Shown only when some attempt was
 * measured.
 */
public final class EfficiencyTables {

  static final List<String> TOTALS_HEAD = List.of("resource", "reserved", "used", "wasted", "wasted %");
  static final List<String> TEMPLATES_HEAD =
      List.of("group", "template", "tasks", "largest request", "p95 peak", "max peak", "wasted %");
  static final List<String> TASKS_HEAD =
      List.of("task", "request", "peak", "wasted", "GPU request", "GPU peak", "CPU used", "learned");

  private EfficiencyTables() {}

  /** Whether the run has anything to show: some attempt was measured. */
  public static boolean shown(RunReport report) {
    return report.efficiency().measuredAttempts() > 0;
  }

  /** One line: how many attempts were measured, and the waste in total. */
  static String summary(Efficiency e) {
    return e.measuredAttempts() + " of " + e.attempts() + " ended attempts measured; host memory "
        + percent(e.memory().wastedShare()) + " wasted, CPU " + percent(e.cpu().wastedShare()) + " unused";
  }

  static List<List<String>> totals(Efficiency e) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(row("host memory", byteTime(e.memory().reserved()), byteTime(e.memory().used()), e.memory(), true));
    if (e.gpuMemory().reserved() > 0 || e.gpuMemory().used() > 0) {
      rows.add(row("GPU memory", byteTime(e.gpuMemory().reserved()), byteTime(e.gpuMemory().used()), e.gpuMemory(),
          true));
    }
    rows.add(row("CPU", coreTime(e.cpu().reserved()), coreTime(e.cpu().used()), e.cpu(), false));
    return rows;
  }

  private static List<String> row(String name, String reserved, String used, Use use, boolean bytes) {
    String wasted = bytes ? byteTime(use.wasted()) : coreTime(use.wasted());
    return List.of(name, reserved, used, wasted, percent(use.wastedShare()));
  }

  static List<List<String>> templates(Efficiency e) {
    List<List<String>> rows = new ArrayList<>();
    for (TemplateUse t : e.templates()) {
      rows.add(List.of(t.group(), t.template(), Integer.toString(t.tasks()), ByteSize.format(t.largestRequestBytes()),
          bytesOrDash(t.p95PeakBytes()), bytesOrDash(t.maxPeakBytes()), percent(t.memory().wastedShare())));
    }
    return rows;
  }

  static List<List<String>> tasks(Efficiency e) {
    List<List<String>> rows = new ArrayList<>();
    for (TaskUse t : e.tasks()) {
      String cpu = t.cpuSeconds() < 0 ? "-" : String.format(Locale.ROOT, "%.1f s of %.1f", t.cpuSeconds(),
          t.cpus() * t.wallSeconds());
      rows.add(List.of(t.id(), ByteSize.format(t.requestedMemoryBytes()), bytesOrDash(t.peakMemoryBytes()),
          t.peakMemoryBytes() < 0 ? "-" : ByteSize.format(t.wastedMemoryBytes()),
          t.requestedGpuMemoryBytes() == 0 ? "-" : ByteSize.format(t.requestedGpuMemoryBytes()),
          bytesOrDash(t.peakGpuMemoryBytes()), cpu, t.learned() == null ? "" : t.learned()));
    }
    return rows;
  }

  /** The section of {@code report.md}, with the per-task rows {@link #tasks} made. */
  static void markdown(StringBuilder md, Efficiency e, List<List<String>> taskRows) {
    md.append("\n## Efficiency\n\n").append(Escape.markdown(summary(e))).append("\n\n");
    table(new MarkdownTable(TOTALS_HEAD), totals(e)).render(md);
    md.append("\n**Per template**\n\n");
    table(new MarkdownTable(TEMPLATES_HEAD), templates(e)).render(md);
    md.append("\n**Per task**\n\n");
    table(new MarkdownTable(TASKS_HEAD), taskRows).render(md);
  }

  private static MarkdownTable table(MarkdownTable t, List<List<String>> rows) {
    rows.forEach(t::row);
    return t;
  }

  /** The section of {@code report.html}, with the per-task rows {@link #tasks} made. */
  static void html(StringBuilder h, Efficiency e, List<List<String>> taskRows) {
    h.append("<section id=\"efficiency\"><h2>Efficiency</h2><p>").append(Escape.html(summary(e))).append("</p>");
    HtmlTables.plain(h, "efficiency-totals", TOTALS_HEAD, totals(e));
    h.append("<h3>Per template</h3>");
    HtmlTables.plain(h, "efficiency-templates", TEMPLATES_HEAD, templates(e));
    h.append("<h3>Per task</h3>");
    HtmlTables.plain(h, "efficiency-tasks", TASKS_HEAD, taskRows);
    h.append("</section>");
  }

  /**
   * For a terminal: the summary and the three tables as aligned plain text, control characters in
   * values taken from tasks replaced so they cannot move the cursor or recolour the screen.
   */
  public static String text(RunReport report) {
    Efficiency e = report.efficiency();
    StringBuilder out = new StringBuilder();
    out.append("Efficiency of run ").append(plain(report.run())).append(": ").append(summary(e)).append("\n\n");
    textTable(out, TOTALS_HEAD, totals(e));
    out.append("\nPer template\n");
    textTable(out, TEMPLATES_HEAD, templates(e));
    out.append("\nPer task\n");
    textTable(out, TASKS_HEAD, tasks(e));
    return out.toString();
  }

  private static void textTable(StringBuilder out, List<String> head, List<List<String>> rows) {
    int[] width = new int[head.size()];
    List<List<String>> all = new ArrayList<>();
    all.add(head);
    rows.forEach(r -> all.add(r.stream().map(EfficiencyTables::plain).toList()));
    for (List<String> r : all) {
      for (int c = 0; c < r.size(); c++) {
        width[c] = Math.max(width[c], r.get(c).length());
      }
    }
    for (List<String> r : all) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < r.size(); c++) {
        line.append(c == 0 ? "" : "  ").append(String.format("%-" + width[c] + "s", r.get(c)));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }

  /** The text with control characters (escape sequences, line breaks) shown as {@code ?}. */
  static String plain(String s) {
    StringBuilder b = new StringBuilder(s.length());
    s.codePoints().forEach(cp -> b.appendCodePoint(Character.isISOControl(cp) ? '?' : cp));
    return b.toString();
  }

  private static String bytesOrDash(long bytes) {
    return bytes < 0 ? "-" : ByteSize.format(bytes);
  }

  /** Byte-seconds as {@code 96 GiB·s}, or per hour once that reads better. */
  static String byteTime(double byteSeconds) {
    double perHour = byteSeconds / 3600;
    return perHour >= 1L << 30 ? ByteSize.format(Math.round(perHour)) + "·h" : ByteSize.format(Math.round(byteSeconds)) + "·s";
  }

  /** Core-seconds as {@code 12.5 core·s}, or core-hours from 10 of them. */
  static String coreTime(double coreSeconds) {
    return coreSeconds >= 36_000 ? String.format(Locale.ROOT, "%.1f core·h", coreSeconds / 3600)
        : String.format(Locale.ROOT, "%.1f core·s", coreSeconds);
  }

  static String percent(double share) {
    return String.format(Locale.ROOT, "%.0f%%", share * 100);
  }
}
