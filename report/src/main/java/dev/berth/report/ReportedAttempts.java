package dev.berth.report;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A task's attempts as the reports show them (run time, attempt count, device, outcome) and the
 * times the charts lay out, derived once and shared by the tables, the CSV and the charts.
 */
final class ReportedAttempts {

  private ReportedAttempts() {}

  /**
   * A task's run time: the sum of its ended attempts' durations, retries included, because that is what the
   * task cost; null when no attempt has ended.
   */
  static Duration runTime(TaskReport t) {
    Duration total = null;
    for (AttemptReport a : t.attempts()) {
      if (a.startedAt() != null && a.finishedAt() != null) {
        Duration d = Duration.between(a.startedAt(), a.finishedAt());
        total = total == null ? d : total.plus(d);
      }
    }
    return total;
  }

  /**
   * A task's attempt count as the tables show it: the number, followed by its train calls when an attempt
   * trained more than once (it ran out of GPU memory training and trained again in the same process).
   */
  static String count(TaskReport t) {
    int attempts = t.attempts().size();
    boolean retrainedInPlace = t.attempts().stream().anyMatch(a -> a.trainCalls().size() > 1);
    if (!retrainedInPlace) {
      return Integer.toString(attempts);
    }
    int calls = t.attempts().stream().mapToInt(a -> a.trainCalls().size()).sum();
    return attempts + " (" + calls + " train calls)";
  }

  /** The last attempt, or null when the task never started. */
  static AttemptReport last(TaskReport t) {
    List<AttemptReport> a = t.attempts();
    return a.isEmpty() ? null : a.get(a.size() - 1);
  }

  /** Where the task ran last: its last attempt's device ({@code cpu} or a GPU), empty when it never started. */
  static String device(TaskReport t) {
    AttemptReport a = last(t);
    return a == null || a.device() == null ? "" : a.device();
  }

  /**
   * Where the task ran last as the tables show it: its device, and for a call task of an engine pool the
   * engine too ({@code cpu · fast/engine-2}).
   */
  static String placed(TaskReport t) {
    AttemptReport a = last(t);
    String engine = a == null ? null : engine(a);
    return engine == null ? device(t) : device(t) + " · " + engine;
  }

  /** The engine of a pool that ran the attempt ({@code fast/engine-2}), or null for a process of its own. */
  static String engine(AttemptReport a) {
    String id = a.clusterJob();
    return id != null && id.matches("[^/]+/engine-[0-9]+") ? id : null;
  }

  /** Where an attempt's bar ends: its finish, or for one still running the end of the report. */
  static Instant end(AttemptReport a, Instant reportEnd) {
    if (a.finishedAt() != null) {
      return a.finishedAt();
    }
    return reportEnd != null && reportEnd.isAfter(a.startedAt()) ? reportEnd : a.startedAt();
  }

  /** An attempt that started, with its task. */
  record Started(TaskReport task, AttemptReport attempt) {}

  /** Every attempt that started, in report order. */
  static List<Started> started(RunReport r) {
    List<Started> out = new ArrayList<>();
    for (GroupReport g : r.groups()) {
      for (TaskReport t : g.tasks()) {
        for (AttemptReport a : t.attempts()) {
          if (a.startedAt() != null) {
            out.add(new Started(t, a));
          }
        }
      }
    }
    return out;
  }

  /** The instant the charts start at: the run start, or the first attempt when that came earlier. */
  static Instant origin(RunReport r) {
    Instant t = r.startedAt();
    for (Started s : started(r)) {
      if (t == null || s.attempt().startedAt().isBefore(t)) {
        t = s.attempt().startedAt();
      }
    }
    return t == null ? Instant.EPOCH : t;
  }

  /** The instant the charts end at: the run end, or the last attempt end when that came later. */
  static Instant horizon(RunReport r) {
    Instant t = r.finishedAt() != null ? r.finishedAt() : origin(r);
    for (Started s : started(r)) {
      Instant e = end(s.attempt(), r.finishedAt());
      if (e.isAfter(t)) {
        t = e;
      }
    }
    return t;
  }

  /** What went wrong with a task, in the most specific words the report has. */
  static String message(TaskReport t) {
    if (t.error() != null && !t.error().isBlank()) {
      return t.error();
    }
    AttemptReport a = last(t);
    return a == null || a.error() == null ? "" : a.error();
  }

  /** The last lines of the standard error of the task's last attempt, as the report carries them, or "". */
  static String stderrTail(TaskReport t) {
    AttemptReport a = last(t);
    return a == null || a.stderrTail() == null ? "" : a.stderrTail();
  }

  /** How the task's last attempt ended, e.g. {@code FAILED, exit 1}, or the task status when it never ran. */
  static String outcome(TaskReport t) {
    AttemptReport a = last(t);
    if (a == null) {
      return "never started";
    }
    return a.exitCode() == null ? a.outcome() : a.outcome() + ", exit " + a.exitCode();
  }
}
