package dev.berth.report;

import dev.berth.core.report.RunReport;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's charts, each an inline SVG with its title, caption and legend: every attempt on a timeline by
 * device, and the memory reserved over time. Drawn once, here, for both places that show them:
 * {@code report.html} inlines them, and the dashboard asks its server for them as the run goes on, so
 * the two show one run the same way.
 *
 * <p>Every value that comes from the run is escaped in the SVG; the titles, captions and legend labels are
 * plain text, for the page that shows them to escape.
 */
public final class RunCharts {

  /**
   * The style sheet of the charts, their legends and their frames; {@code report.html} inlines it inside
   * its own, the dashboard serves it. It names the colours {@code --muted} and {@code --line}, which the
   * page defines.
   */
  // No '&' or '<' anywhere: report.html stays well-formed XML, which the tests rely on to parse it.
  public static final String CSS = """
      .legend { display: flex; flex-wrap: wrap; gap: 6px 16px; font-size: 13px; color: var(--muted); margin: 8px 0; }
      .legend span { display: inline-flex; align-items: center; gap: 6px; }
      .legend i { display: inline-block; width: 12px; height: 12px; border-radius: 3px; }
      .legend i.line { height: 3px; border-radius: 2px; }
      .chart { border: 1px solid var(--line); border-radius: 10px; padding: 8px 8px 0; }
      svg { display: block; width: 100%; height: auto; }
      svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; font-size: 11px;
        fill: var(--muted); }
      svg .bar-label { fill: #fff; font-size: 10.5px; font-weight: 600; pointer-events: none; }
      svg .grid { stroke: #eef1f4; stroke-width: 1; }
      svg .axis { stroke: #afb8c1; stroke-width: 1; }
      svg .device-sep { stroke: var(--line); stroke-width: 1; stroke-dasharray: 3 3; }
      svg rect.attempt { stroke: #fff; stroke-width: .5; }
      """;

  /**
   * One entry of a chart's legend.
   *
   * @param label what the colour stands for
   * @param colour a CSS colour
   * @param line whether it is a line of the chart (drawn as a thin stroke) rather than a filled bar
   */
  public record Legend(String label, String colour, boolean line) {}

  /**
   * One chart.
   *
   * @param id the chart's name, {@code timeline} or {@code memory}, the anchor of its section
   * @param title its heading
   * @param caption a sentence on what it shows
   * @param legend its colours
   * @param svg the chart itself, a standalone SVG element
   */
  public record Chart(String id, String title, String caption, List<Legend> legend, String svg) {}

  private final Timeline timeline;
  private final MemoryChart memory;

  private RunCharts(Timeline timeline, MemoryChart memory) {
    this.timeline = timeline;
    this.memory = memory;
  }

  /** The charts of a run as the report says it stands; a pure function of the report. */
  public static RunCharts of(RunReport report) {
    return new RunCharts(Timeline.of(report), MemoryChart.of(report));
  }

  /** The charts to show: none before an attempt started, then the timeline and the memory chart. */
  public List<Chart> charts() {
    if (!anyAttempt()) {
      return List.of();
    }
    return List.of(timelineChart(), memoryChart());
  }

  boolean anyAttempt() {
    return !timeline.lanes().isEmpty();
  }

  Timeline timeline() {
    return timeline;
  }

  MemoryChart memory() {
    return memory;
  }

  private Chart timelineChart() {
    List<Legend> legend = new ArrayList<>();
    for (String outcome : timeline.outcomes()) {
      legend.add(new Legend(outcome, Palette.outcome(outcome), false));
    }
    return new Chart("timeline", "Timeline", "Every attempt by device, from the start of the run; attempts that"
        + " overlapped on a device get rows of their own. Hover a bar for its task, attempt, outcome and duration.",
        List.copyOf(legend), timeline.svg());
  }

  private Chart memoryChart() {
    List<Legend> legend = new ArrayList<>();
    for (int i = 0; i < memory.series().size(); i++) {
      MemoryChart.Series s = memory.series().get(i);
      legend.add(new Legend(s.label() + " · peak " + Formats.bytes(s.peak()),
          Palette.SERIES[i % Palette.SERIES.length], true));
    }
    return new Chart("memory", "Reserved memory", "What Berth reserved for running attempts, from their"
        + " estimates; the host's real usage may be lower.", List.copyOf(legend), memory.svg());
  }
}
