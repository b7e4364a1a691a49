package dev.berth.report;

import dev.berth.core.report.RunReport;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The time axis the charts share: from {@link ReportedAttempts#origin} to
 * {@link ReportedAttempts#horizon}, across the chart's width less its margins, so the timeline and
 * the memory chart line up one above the other.
 *
 * @param origin the instant at the left end
 * @param spanMs the time across the axis, at least 1 ms
 */
record TimeAxis(Instant origin, long spanMs) {

  static final double WIDTH = 1000;
  static final double LEFT = 92;
  static final double RIGHT = 16;
  static final double AXIS = 26;

  static TimeAxis of(RunReport r) {
    Instant origin = ReportedAttempts.origin(r);
    return new TimeAxis(origin, Math.max(1, Duration.between(origin, ReportedAttempts.horizon(r)).toMillis()));
  }

  /** The x coordinate of an instant. */
  double x(Instant at) {
    return x(Duration.between(origin, at).toMillis());
  }

  /** The x coordinate of a time from the origin. */
  double x(long ms) {
    return LEFT + (WIDTH - LEFT - RIGHT) * ms / spanMs;
  }

  /** The labelled times, in milliseconds from the origin. */
  List<Long> ticks() {
    return Ticks.time(spanMs, 10);
  }
}
