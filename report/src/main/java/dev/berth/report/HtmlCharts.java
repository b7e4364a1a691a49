package dev.berth.report;

import static dev.berth.report.Escape.html;

/** The chart sections of the HTML report, each a caption, a legend and an inline SVG (see {@link RunCharts}). */
final class HtmlCharts {

  private HtmlCharts() {}

  static void all(StringBuilder h, RunCharts charts) {
    if (!charts.anyAttempt()) {
      h.append("<section id=\"timeline\"><h2>Timeline</h2><p class=\"muted\">No attempt started.</p></section>");
      return;
    }
    for (RunCharts.Chart c : charts.charts()) {
      // The ids, titles and captions are Berth's own text; the labels may come from the run.
      h.append("<section id=\"").append(c.id()).append("\"><h2>").append(c.title()).append("</h2><p class=\"muted\">")
          .append(c.caption()).append("</p><div class=\"legend\">");
      for (RunCharts.Legend l : c.legend()) {
        h.append("<span><i ").append(l.line() ? "class=\"line\" " : "").append("style=\"background:")
            .append(l.colour()).append("\"></i>").append(html(l.label())).append("</span>");
      }
      h.append("</div><div class=\"chart\">").append(c.svg()).append("</div></section>");
    }
  }
}
