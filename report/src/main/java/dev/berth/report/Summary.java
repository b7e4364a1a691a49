package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.Totals;
import java.time.Duration;

/** The short sentences every rendering and notification shares. */
final class Summary {

  private Summary() {}

  /** {@code 12/12}: succeeded out of all. */
  static String ratio(Totals t) {
    return t.succeeded() + "/" + t.total();
  }

  /** The run's wall time, or null while it runs. */
  static Duration took(RunReport r) {
    return r.startedAt() == null || r.finishedAt() == null ? null : Duration.between(r.startedAt(), r.finishedAt());
  }

  /**
   * How a group ended: SUCCEEDED when every task did, INTERRUPTED when Berth's stop interrupted any,
   * PENDING while any has not ended, otherwise FAILED.
   */
  static String groupStatus(GroupReport g) {
    Totals t = g.totals();
    if (t.succeeded() == t.total()) {
      return TaskStatus.SUCCEEDED.name();
    }
    if (t.interrupted() > 0 && t.unsuccessful() == 0) {
      return TaskStatus.INTERRUPTED.name();
    }
    return t.ended() < t.total() && t.unsuccessful() == 0 ? TaskStatus.PENDING.name() : TaskStatus.FAILED.name();
  }
}
