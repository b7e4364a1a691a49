package dev.berth.cli;

import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.session.JournalView;
import dev.berth.session.SessionException;
import dev.berth.session.StatusFile;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A user's queue as its inbox and its run's journal tell it: one row per task ever submitted, the
 * journal's state where the run holds the task, {@code queued} where the queue has not taken it yet,
 * {@code refused} where it could not.
 */
final class QueueView {

  /**
   * One task of the queue.
   *
   * @param submission what was submitted
   * @param state {@code queued}, {@code refused}, or the task's status in lower case ({@code pending},
   *     {@code running}, {@code succeeded}, {@code failed}, ...)
   * @param device the device of its last attempt, or {@code -}
   * @param waited from its submission to its first start (or to now), null when it ended without starting
   * @param ran its last attempt's time, null when none started
   * @param exitCode its last attempt's exit code, or null
   * @param why why it waits (as the run's latest decision pass said), or why it did not succeed; or null
   */
  record Row(Submission submission, String state, String device, Duration waited, Duration ran, Integer exitCode,
      String why) {

    /** Whether the task will not change any more. */
    boolean ended() {
      return !List.of("queued", "pending", "running").contains(state);
    }

    /** The exit code {@code berth wait} gives for it: its own, else 0 for a success and 1 for any other end. */
    int waitCode() {
      if (state.equals("succeeded")) {
        return 0;
      }
      return exitCode != null && exitCode != 0 ? exitCode : 1;
    }
  }

  private QueueView() {}

  /** Every task of {@code queue}, in id order, as of {@code now}. */
  static List<Row> read(QueueFolder queue, Instant now) throws IOException {
    return read(queue, queue.submissions(), now);
  }

  /**
   * The tasks of {@code submissions}, in their order, as of {@code now}: for a command that looks
   * again and again (logs -f, wait), which reads the inbox once, since a submission never changes.
   */
  static List<Row> read(QueueFolder queue, List<Submission> submissions, Instant now) throws IOException {
    Map<String, TaskReport> run = new HashMap<>();
    if (Files.exists(JournalView.file(queue.runDir()))) {
      try {
        JournalView view = JournalView.read(queue.runDir());
        for (TaskRecord r : view.state().tasks()) {
          run.put(r.spec().id().value(), TaskReport.of(r, ""));
        }
      } catch (SessionException e) {
        if (!queue.live()) {
          throw new IOException(e.getMessage(), e);
        }
        // a queue that has just started has not written its run's start yet: its tasks are all queued
      }
    }
    StatusFile.Waits waits = StatusFile.Waits.NONE;
    try {
      waits = StatusFile.waits(queue.runDir());
    } catch (IOException e) {
      // a status file being replaced, or unreadable: the rows go without their reasons
    }
    List<Row> rows = new ArrayList<>();
    for (Submission s : submissions) {
      TaskReport t = run.get(Integer.toString(s.id()));
      if (t == null) {
        Optional<String> refused = queue.refusal(s.id());
        rows.add(new Row(s, refused.isPresent() ? "refused" : "queued", "-",
            refused.isPresent() ? null : Duration.between(s.submittedAt(), now), null, null, refused.orElse(null)));
        continue;
      }
      List<AttemptReport> attempts = t.attempts();
      AttemptReport last = attempts.isEmpty() ? null : attempts.get(attempts.size() - 1);
      boolean ended = t.status() != TaskStatus.PENDING && t.status() != TaskStatus.RUNNING;
      Duration waited = !attempts.isEmpty() && attempts.get(0).startedAt() != null
          ? Duration.between(s.submittedAt(), attempts.get(0).startedAt())
          : ended ? null : Duration.between(s.submittedAt(), now);
      Duration ran = last == null || last.startedAt() == null ? null
          : Duration.between(last.startedAt(), last.finishedAt() != null ? last.finishedAt() : now);
      String why = t.status() == TaskStatus.PENDING ? waits.why(t.id()).orElse(null) : t.error();
      rows.add(new Row(s, t.status().name().toLowerCase(Locale.ROOT), last == null ? "-" : last.device(),
          waited, ran, last == null ? null : last.exitCode(), why));
    }
    return rows;
  }

  /** A duration as the table shows it: {@code 45s}, {@code 3m12s}, {@code 2h05m}; {@code -} for none. */
  static String duration(Duration d) {
    if (d == null) {
      return "-";
    }
    long s = Math.max(0, d.toSeconds());
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m" + String.format(Locale.ROOT, "%02d", s % 60) + "s";
    }
    return s / 3600 + "h" + String.format(Locale.ROOT, "%02d", s % 3600 / 60) + "m";
  }
}
