package dev.berth.report;

import static dev.berth.report.TimeAxis.AXIS;
import static dev.berth.report.TimeAxis.LEFT;
import static dev.berth.report.TimeAxis.RIGHT;
import static dev.berth.report.TimeAxis.WIDTH;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every attempt as a bar on a Gantt chart: one lane per device and slot, so attempts that overlapped on the
 * same device sit in rows of their own instead of on top of each other.
 */
final class Timeline {

  /** One attempt's bar. */
  record Bar(TaskReport task, AttemptReport attempt, Instant start, Instant end) {}

  /** One row of the chart: a device and a slot number from 1. */
  record Lane(String device, int slot, List<Bar> bars) {}

  private static final double TOP = 6;
  private static final double LANE = 22;
  private static final double BAR = 16;

  private final List<Lane> lanes;
  private final TimeAxis axis;

  private Timeline(List<Lane> lanes, TimeAxis axis) {
    this.lanes = lanes;
    this.axis = axis;
  }

  static Timeline of(RunReport r) {
    Map<String, List<Bar>> byDevice = new TreeMap<>(Timeline::deviceOrder);
    for (ReportedAttempts.Started s : ReportedAttempts.started(r)) {
      AttemptReport a = s.attempt();
      String device = a.device() == null || a.device().isBlank() ? "cpu" : a.device();
      byDevice.computeIfAbsent(device, d -> new ArrayList<>())
          .add(new Bar(s.task(), a, a.startedAt(), ReportedAttempts.end(a, r.finishedAt())));
    }
    List<Lane> lanes = new ArrayList<>();
    byDevice.forEach((device, bars) -> lanes.addAll(pack(device, bars)));
    return new Timeline(lanes, TimeAxis.of(r));
  }

  List<Lane> lanes() {
    return lanes;
  }

  /** Outcomes that appear, in the order of first appearance, for the legend. */
  Set<String> outcomes() {
    Set<String> seen = new LinkedHashSet<>();
    lanes.forEach(l -> l.bars().forEach(b -> seen.add(b.attempt().outcome())));
    return seen;
  }

  String svg() {
    double height = TOP + lanes.size() * LANE + AXIS;
    StringBuilder s = new StringBuilder();
    s.append("<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        .append(num(WIDTH)).append(' ').append(num(height)).append("\" role=\"img\" aria-label=\"Attempts over time by device\">");
    double axisY = TOP + lanes.size() * LANE;
    for (long t : axis.ticks()) {
      double x = axis.x(t);
      s.append("<line class=\"grid\" x1=\"").append(num(x)).append("\" y1=\"").append(num(TOP))
          .append("\" x2=\"").append(num(x)).append("\" y2=\"").append(num(axisY)).append("\"/>");
      s.append("<text class=\"tick\" x=\"").append(num(x)).append("\" y=\"").append(num(axisY + 16))
          .append("\" text-anchor=\"middle\">").append(Ticks.timeLabel(t)).append("</text>");
    }
    for (int i = 0; i < lanes.size(); i++) {
      Lane lane = lanes.get(i);
      double y = TOP + i * LANE;
      if (i > 0 && !lanes.get(i - 1).device().equals(lane.device())) {
        s.append("<line class=\"device-sep\" x1=\"0\" y1=\"").append(num(y)).append("\" x2=\"").append(num(WIDTH))
            .append("\" y2=\"").append(num(y)).append("\"/>");
      }
      s.append("<text class=\"lane\" x=\"").append(num(LEFT - 8)).append("\" y=\"").append(num(y + LANE / 2 + 4))
          .append("\" text-anchor=\"end\">").append(Escape.html(lane.device())).append(" · ").append(lane.slot())
          .append("</text>");
      for (Bar b : lane.bars()) {
        bar(s, b, y + (LANE - BAR) / 2);
      }
    }
    s.append("<line class=\"axis\" x1=\"").append(num(LEFT)).append("\" y1=\"").append(num(axisY))
        .append("\" x2=\"").append(num(WIDTH - RIGHT)).append("\" y2=\"").append(num(axisY)).append("\"/>");
    return s.append("</svg>").toString();
  }

  private void bar(StringBuilder s, Bar b, double y) {
    double x0 = axis.x(b.start());
    double x1 = axis.x(b.end());
    // An attempt that failed to start has no length; it still deserves a visible mark.
    double w = Math.max(2, x1 - x0);
    AttemptReport a = b.attempt();
    s.append("<rect class=\"attempt\" x=\"").append(num(x0)).append("\" y=\"").append(num(y))
        .append("\" width=\"").append(num(w)).append("\" height=\"").append(num(BAR))
        .append("\" rx=\"2\" fill=\"").append(Palette.outcome(a.outcome())).append("\">")
        .append("<title>").append(Escape.html(tooltip(b))).append("</title></rect>");
    String label = b.task().id();
    // Roughly 6.2 units per character at the chart's font size; labels that would overflow are left out.
    if (w > label.length() * 6.2 + 8) {
      s.append("<text class=\"bar-label\" x=\"").append(num(x0 + 4)).append("\" y=\"").append(num(y + BAR - 4.5))
          .append("\">").append(Escape.html(label)).append("</text>");
    }
  }

  static String tooltip(Bar b) {
    AttemptReport a = b.attempt();
    String took = a.finishedAt() == null ? "still running" : Formats.duration(Duration.between(b.start(), b.end()));
    String exit = a.exitCode() == null ? "" : ", exit " + a.exitCode();
    String engine = ReportedAttempts.engine(a) == null ? "" : " · " + ReportedAttempts.engine(a);
    return b.task().id() + " · attempt " + a.number() + engine + " · " + a.outcome() + exit + " · " + took;
  }

  /** Places bars in the first slot free at their start; a finished bar frees its slot at its end. */
  static List<Lane> pack(String device, List<Bar> bars) {
    List<Bar> sorted = new ArrayList<>(bars);
    sorted.sort(Comparator.comparing(Bar::start).thenComparing(Bar::end));
    List<List<Bar>> slots = new ArrayList<>();
    List<Instant> freeAt = new ArrayList<>();
    for (Bar b : sorted) {
      int slot = -1;
      for (int i = 0; i < slots.size(); i++) {
        if (!freeAt.get(i).isAfter(b.start())) {
          slot = i;
          break;
        }
      }
      if (slot < 0) {
        slots.add(new ArrayList<>());
        freeAt.add(b.end());
        slot = slots.size() - 1;
      }
      slots.get(slot).add(b);
      freeAt.set(slot, b.end());
    }
    List<Lane> lanes = new ArrayList<>();
    for (int i = 0; i < slots.size(); i++) {
      lanes.add(new Lane(device, i + 1, List.copyOf(slots.get(i))));
    }
    return lanes;
  }

  private static int deviceOrder(String a, String b) {
    boolean ca = a.equals("cpu");
    boolean cb = b.equals("cpu");
    if (ca != cb) {
      return ca ? -1 : 1;
    }
    return a.compareTo(b);
  }

  static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
