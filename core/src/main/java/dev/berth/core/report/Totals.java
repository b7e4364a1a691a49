package dev.berth.core.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Task counts by status: the one counting rule of the console, {@code berth status}, the reports and
 * the notifications.
 *
 * @param total tasks counted
 * @param succeeded tasks that succeeded
 * @param failed tasks that failed
 * @param cancelled tasks that were cancelled
 * @param timedOut tasks that timed out
 * @param unreachable tasks whose dependencies could not be met
 * @param running tasks with an attempt under way
 * @param pending tasks that have not ended and have no attempt under way
 * @param interrupted tasks whose attempt Berth's stop interrupted, to run again when the run resumes
 */
public record Totals(int total, int succeeded, int failed, int cancelled, int timedOut, int unreachable, int running,
    int pending, int interrupted) {

  /** Counts without interrupted tasks. */
  public Totals(int total, int succeeded, int failed, int cancelled, int timedOut, int unreachable, int running,
      int pending) {
    this(total, succeeded, failed, cancelled, timedOut, unreachable, running, pending, 0);
  }

  /** Counts the statuses of these tasks. */
  public static Totals of(List<TaskReport> tasks) {
    return count(tasks.stream().map(TaskReport::status).toList());
  }

  /** Counts these statuses, one per task. */
  public static Totals count(Collection<TaskStatus> statuses) {
    int[] n = new int[TaskStatus.values().length];
    for (TaskStatus s : statuses) {
      n[s.ordinal()]++;
    }
    return counted(n);
  }

  /**
   * The totals of counts kept by status, indexed by {@link TaskStatus#ordinal()}: for a view that
   * keeps them as tasks change instead of counting every task again.
   */
  public static Totals counted(int[] byStatus) {
    if (byStatus.length != TaskStatus.values().length) {
      throw new IllegalArgumentException("one count per status, not " + byStatus.length);
    }
    int total = 0;
    for (int count : byStatus) {
      total += count;
    }
    return new Totals(
        total,
        byStatus[TaskStatus.SUCCEEDED.ordinal()],
        byStatus[TaskStatus.FAILED.ordinal()],
        byStatus[TaskStatus.CANCELLED.ordinal()],
        byStatus[TaskStatus.TIMED_OUT.ordinal()],
        byStatus[TaskStatus.UNREACHABLE.ordinal()],
        byStatus[TaskStatus.RUNNING.ordinal()],
        byStatus[TaskStatus.PENDING.ordinal()],
        byStatus[TaskStatus.INTERRUPTED.ordinal()]);
  }

  /** Tasks that ended in any way other than success. */
  public int unsuccessful() {
    return failed + cancelled + timedOut + unreachable;
  }

  /** Tasks that ended, in any way (an interrupted task has not: it runs again). */
  public int ended() {
    return total - running - pending - interrupted;
  }

  /**
   * The counts in words, as every view prints them: {@code 7 tasks: 4 succeeded, 2 failed, 1 unreachable}
   * or {@code 4 tasks: 4 succeeded, 0 failed}; running, interrupted and pending tasks are named when there are any.
   */
  public String describe() {
    return total + (total == 1 ? " task: " : " tasks: ") + succeeded + " succeeded, " + describeUnsuccessful()
        + describeUnended();
  }

  /**
   * The tasks that have not ended, after a comma: {@code , 2 running, 1 interrupted, 3 pending}; empty
   * when every task ended.
   */
  public String describeUnended() {
    return (running > 0 ? ", " + running + " running" : "")
        + (interrupted > 0 ? ", " + interrupted + " interrupted" : "")
        + (pending > 0 ? ", " + pending + " pending" : "");
  }

  /**
   * The tasks that ended without success in words, each way that happened: {@code 2 failed, 1 timed out};
   * {@code 0 failed} when nothing went wrong.
   */
  public String describeUnsuccessful() {
    List<String> parts = new ArrayList<>();
    add(parts, failed, "failed");
    add(parts, timedOut, "timed out");
    add(parts, cancelled, "cancelled");
    add(parts, unreachable, "unreachable");
    return parts.isEmpty() ? "0 failed" : String.join(", ", parts);
  }

  private static void add(List<String> parts, int n, String word) {
    if (n > 0) {
      parts.add(n + " " + word);
    }
  }
}
