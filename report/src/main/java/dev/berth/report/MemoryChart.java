package dev.berth.report;

import static dev.berth.report.TimeAxis.AXIS;
import static dev.berth.report.TimeAxis.LEFT;
import static dev.berth.report.TimeAxis.RIGHT;
import static dev.berth.report.TimeAxis.WIDTH;
import static dev.berth.report.Timeline.num;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Memory reserved for running attempts over time, as a step chart: host memory, and GPU memory per device
 * when any attempt reserved some. Computed from the attempts' reservations and start and finish times.
 */
final class MemoryChart {

  /** The reserved total from {@code at} until the next step. */
  record Step(Instant at, long bytes) {}

  /** One line of the chart. */
  record Series(String label, List<Step> steps) {

    long peak() {
      return steps.stream().mapToLong(Step::bytes).max().orElse(0);
    }

    /** When the peak was first reached. */
    Instant peakAt() {
      long p = peak();
      return steps.stream().filter(s -> s.bytes() == p).map(Step::at).findFirst().orElse(null);
    }
  }

  private static final double TOP = 10;
  private static final double PLOT = 170;

  private final List<Series> series;
  private final TimeAxis axis;

  private MemoryChart(List<Series> series, TimeAxis axis) {
    this.series = series;
    this.axis = axis;
  }

  static MemoryChart of(RunReport r) {
    TimeAxis axis = TimeAxis.of(r);
    Instant origin = axis.origin();
    TreeMap<Instant, Long> host = new TreeMap<>();
    Map<String, TreeMap<Instant, Long>> gpus = new TreeMap<>();
    for (ReportedAttempts.Started s : ReportedAttempts.started(r)) {
      AttemptReport a = s.attempt();
      Instant end = ReportedAttempts.end(a, r.finishedAt());
      change(host, a.startedAt(), end, a.reservedMemoryBytes());
      if (a.reservedGpuMemoryBytes() > 0) {
        change(gpus.computeIfAbsent(a.device(), d -> new TreeMap<>()), a.startedAt(), end, a.reservedGpuMemoryBytes());
      }
    }
    List<Series> series = new ArrayList<>();
    series.add(new Series("host memory", steps(host, origin)));
    gpus.forEach((device, deltas) -> series.add(new Series("GPU memory on " + device, steps(deltas, origin))));
    return new MemoryChart(List.copyOf(series), axis);
  }

  List<Series> series() {
    return series;
  }

  // Deltas at the same instant are summed before a step is drawn, so an attempt ending exactly when another
  // starts does not show a peak that never existed.
  private static void change(TreeMap<Instant, Long> deltas, Instant start, Instant end, long bytes) {
    if (bytes <= 0 || !end.isAfter(start)) {
      return;
    }
    deltas.merge(start, bytes, Long::sum);
    deltas.merge(end, -bytes, Long::sum);
  }

  private static List<Step> steps(TreeMap<Instant, Long> deltas, Instant origin) {
    List<Step> steps = new ArrayList<>();
    steps.add(new Step(origin, 0));
    long level = 0;
    for (Map.Entry<Instant, Long> e : deltas.entrySet()) {
      level += e.getValue();
      Instant at = e.getKey().isBefore(origin) ? origin : e.getKey();
      if (steps.get(steps.size() - 1).at().equals(at)) {
        steps.set(steps.size() - 1, new Step(at, level));
      } else if (steps.get(steps.size() - 1).bytes() != level) {
        steps.add(new Step(at, level));
      }
    }
    return List.copyOf(steps);
  }

  String svg() {
    long max = Math.max(1, series.stream().mapToLong(Series::peak).max().orElse(1));
    long step = Ticks.bytesStep(max, 4);
    long top = ((max + step - 1) / step) * step;
    double height = TOP + PLOT + AXIS;
    StringBuilder s = new StringBuilder();
    s.append("<svg class=\"memory-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ")
        .append(num(WIDTH)).append(' ').append(num(height))
        .append("\" role=\"img\" aria-label=\"Reserved memory over time\">");
    for (long v = 0; v <= top; v += step) {
      double y = TOP + PLOT - PLOT * v / top;
      s.append("<line class=\"grid\" x1=\"").append(num(LEFT)).append("\" y1=\"").append(num(y)).append("\" x2=\"")
          .append(num(WIDTH - RIGHT)).append("\" y2=\"").append(num(y)).append("\"/>");
      s.append("<text class=\"tick\" x=\"").append(num(LEFT - 8)).append("\" y=\"").append(num(y + 4))
          .append("\" text-anchor=\"end\">").append(v == 0 ? "0" : Formats.bytes(v)).append("</text>");
    }
    for (long t : axis.ticks()) {
      double x = axis.x(t);
      s.append("<text class=\"tick\" x=\"").append(num(x)).append("\" y=\"").append(num(TOP + PLOT + 16))
          .append("\" text-anchor=\"middle\">").append(Ticks.timeLabel(t)).append("</text>");
    }
    for (int i = 0; i < series.size(); i++) {
      String path = path(series.get(i), top);
      String colour = Palette.SERIES[i % Palette.SERIES.length];
      if (i == 0) {
        s.append("<path class=\"area\" d=\"").append(path).append(" V").append(num(TOP + PLOT)).append(" H")
            .append(num(LEFT)).append(" Z\" fill=\"").append(colour).append("\" fill-opacity=\"0.14\"/>");
      }
      s.append("<path class=\"series\" data-series=\"").append(Escape.html(series.get(i).label())).append("\" d=\"")
          .append(path).append("\" fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\"")
          .append(i == 0 ? "" : " stroke-dasharray=\"6 3\"").append("><title>")
          .append(Escape.html(series.get(i).label() + ": peak " + Formats.bytes(series.get(i).peak())))
          .append("</title></path>");
    }
    s.append("<line class=\"axis\" x1=\"").append(num(LEFT)).append("\" y1=\"").append(num(TOP + PLOT))
        .append("\" x2=\"").append(num(WIDTH - RIGHT)).append("\" y2=\"").append(num(TOP + PLOT)).append("\"/>");
    return s.append("</svg>").toString();
  }

  private String path(Series sr, long top) {
    StringBuilder d = new StringBuilder();
    List<Step> steps = sr.steps();
    for (int i = 0; i < steps.size(); i++) {
      double x = axis.x(steps.get(i).at());
      double y = TOP + PLOT - PLOT * steps.get(i).bytes() / top;
      if (i == 0) {
        d.append('M').append(num(x)).append(' ').append(num(y));
      } else {
        d.append(" H").append(num(x)).append(" V").append(num(y));
      }
    }
    return d.append(" H").append(num(WIDTH - RIGHT)).toString();
  }
}
