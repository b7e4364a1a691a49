package dev.berth.core.report;

import java.util.List;

/**
 * Task counts by how they ended.
 *
 * @param total tasks counted
 * @param succeeded tasks that succeeded
 * @param failed tasks that failed
 * @param cancelled tasks that were cancelled
 * @param timedOut tasks that timed out
 * @param unreachable tasks whose dependencies could not be met
 * @param pending tasks that have not ended
 */
public record Totals(int total, int succeeded, int failed, int cancelled, int timedOut, int unreachable, int pending) {

  /** Counts the statuses of these tasks. */
  public static Totals of(List<TaskReport> tasks) {
    int[] n = new int[TaskStatus.values().length];
    for (TaskReport t : tasks) {
      n[t.status().ordinal()]++;
    }
    return new Totals(
        tasks.size(),
        n[TaskStatus.SUCCEEDED.ordinal()],
        n[TaskStatus.FAILED.ordinal()],
        n[TaskStatus.CANCELLED.ordinal()],
        n[TaskStatus.TIMED_OUT.ordinal()],
        n[TaskStatus.UNREACHABLE.ordinal()],
        n[TaskStatus.PENDING.ordinal()]);
  }

  /** Tasks that ended in any way other than success. */
  public int unsuccessful() {
    return failed + cancelled + timedOut + unreachable;
  }
}
