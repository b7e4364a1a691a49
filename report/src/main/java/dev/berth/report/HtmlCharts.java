package dev.berth.report;

import static dev.berth.report.Escape.html;

/** The chart sections of the HTML report, each a caption, a legend and an inline SVG. */
final class HtmlCharts {

  private HtmlCharts() {}

  static void timeline(StringBuilder h, Timeline timeline) {
    h.append("<section id=\"timeline\"><h2>Timeline</h2>");
    if (timeline.lanes().isEmpty()) {
      h.append("<p class=\"muted\">No attempt started.</p></section>");
      return;
    }
    h.append("<p class=\"muted\">Every attempt by device, from the start of the run; attempts that overlapped on a ")
        .append("device get rows of their own. Hover a bar for its task, attempt, outcome and duration.</p>")
        .append("<div class=\"legend\">");
    for (String outcome : timeline.outcomes()) {
      h.append("<span><i style=\"background:").append(Palette.outcome(outcome)).append("\"></i>")
          .append(html(outcome)).append("</span>");
    }
    h.append("</div><div class=\"chart\">").append(timeline.svg()).append("</div></section>");
  }

  static void memory(StringBuilder h, MemoryChart chart, boolean anyAttempt) {
    if (!anyAttempt) {
      return;
    }
    h.append("<section id=\"memory\"><h2>Reserved memory</h2><p class=\"muted\">What Berth reserved for running ")
        .append("attempts, from their estimates; the host's real usage may be lower.</p><div class=\"legend\">");
    for (int i = 0; i < chart.series().size(); i++) {
      MemoryChart.Series s = chart.series().get(i);
      h.append("<span><i class=\"line\" style=\"background:").append(Palette.SERIES[i % Palette.SERIES.length])
          .append("\"></i>").append(html(s.label())).append(" · peak ").append(html(Formats.bytes(s.peak())))
          .append("</span>");
    }
    h.append("</div><div class=\"chart\">").append(chart.svg()).append("</div></section>");
  }
}
