package dev.berth.spi;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The durable record of one run, so that a run survives the scheduler being killed: the spec it
 * started with, every task event in the order it happened, and the run's end.
 *
 * <p><b>Durability.</b> {@link #start} is durable when it returns. {@link #append}, {@link #updateSpec} and
 * {@link #reopenRun} only buffer; {@link #flush} writes everything buffered since the last flush as
 * one unit (a group commit) and returns when it is durable; {@link #flush(Runnable)} returns once the
 * unit survives the process and says later when it is durable. {@link #finish} flushes too. What was
 * buffered but not flushed when the process dies is lost, and a new process that opens the journal
 * sees exactly the flushed prefix: never a part of a flush.
 *
 * <p><b>Threads.</b> One writer thread owns a journal; implementations do not synchronize. Other
 * processes may read the same journal while it is written, and see whole flushes only.
 *
 * <p><b>Replay.</b> {@link #replay()} returns what has been flushed; the caller rebuilds the run's
 * state with the core's own fold: a {@code new RunState(spec)} of the stored spec, then
 * {@link Replay#applyTo(RunState)}.
 */
public interface Journal extends AutoCloseable {

  /**
   * Records that the run started: its name, its spec as canonical JSON (the journal keeps the text
   * and its SHA-256) and the start time. Called once per journal, before anything else is written;
   * durable when it returns.
   *
   * @throws IllegalStateException when the journal already holds a run
   * @throws JournalException when it cannot be written
   */
  void start(String runName, String specJson, Instant startedAt) throws JournalException;

  /**
   * Buffers one task event; it becomes durable with the next {@link #flush}.
   *
   * @throws IllegalStateException before {@link #start}, or after {@link #close}
   */
  void append(TaskId task, TaskEvent event);

  /**
   * Buffers a new spec for the run, replacing the stored spec text and its SHA-256 with the next
   * {@link #flush}: for a run whose spec grows while it runs (a session's submitted groups). Call it
   * no later than in the flush that holds the first event of a task the new spec adds, so that a
   * replay never holds events of a task its spec lacks; several calls before one flush leave the
   * last spec. {@link #replay()} returns the latest flushed spec; the run's name, start and end do
   * not change.
   *
   * <p>The default refuses: a journal for runs whose spec never grows need not implement it.
   *
   * @throws IllegalArgumentException when the text is not JSON (implementations that parse JSON check)
   * @throws IllegalStateException before {@link #start}, or after {@link #close}
   * @throws UnsupportedOperationException when this journal cannot record a growing spec
   */
  default void updateSpec(String specJson) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot record a spec that grows");
  }

  /**
   * Writes everything buffered, in call order, as one atomic unit and returns when it is durable.
   * Does nothing when nothing is buffered. On failure the buffer is kept, so a later flush may retry.
   *
   * @throws JournalException when it cannot be written
   */
  void flush() throws JournalException;

  /**
   * Writes everything buffered as one unit, as {@link #flush()} does, but returns once it survives
   * the death of this process (a {@code kill -9}), and runs {@code whenDurable} once it is durable
   * (it also survives a crash of the machine). A journal that syncs in the background calls it on a
   * thread of its own, in the order of the flushes; one that cannot, before returning. Where
   * {@link #flush()} would make the caller wait for the disk on every step, this lets a writer go on
   * with its work while it holds back only what it shows.
   */
  default void flush(Runnable whenDurable) throws JournalException {
    flush();
    whenDurable.run();
  }

  /**
   * Records how and when the run ended, flushing what is buffered in the same unit; durable when it
   * returns. A resumed run may finish again; the last end wins. An interrupted run has not ended
   * (it resumes), so {@link RunStatus#INTERRUPTED} is no status to finish with.
   *
   * @throws IllegalArgumentException for {@link RunStatus#INTERRUPTED}
   * @throws IllegalStateException before {@link #start}, or after {@link #close}
   * @throws JournalException when it cannot be written
   */
  void finish(RunStatus status, Instant finishedAt) throws JournalException;

  /**
   * Checks a status given to {@link #finish}: the implementations' one rule.
   *
   * @throws IllegalArgumentException for {@link RunStatus#INTERRUPTED}, which is not an end
   */
  static RunStatus ending(RunStatus status) {
    if (Objects.requireNonNull(status, "status") == RunStatus.INTERRUPTED) {
      throw new IllegalArgumentException("an interrupted run has not ended: it stays unfinished to be resumed");
    }
    return status;
  }

  /**
   * Buffers that the run, which had ended, goes on again (a retry reopened some of its tasks): its
   * status and finish time are cleared with the next {@link #flush}, in the same unit as the events
   * buffered beside it. Nothing else of the run changes. The default refuses: a journal for runs
   * that are never retried need not implement it.
   *
   * @throws IllegalStateException before {@link #start}, or after {@link #close}
   * @throws UnsupportedOperationException when this journal cannot record a reopened run
   */
  default void reopenRun() {
    throw new UnsupportedOperationException(getClass().getName() + " cannot reopen a run");
  }

  /**
   * What has been flushed so far (buffered writes are not included); empty when no run has started,
   * e.g. when the scheduler died between creating the journal and starting the run.
   *
   * @throws IllegalStateException after {@link #close}
   * @throws JournalException when it cannot be read
   */
  Optional<Replay> replay() throws JournalException;

  /** Flushes what is buffered and releases the journal. Closing twice does nothing. */
  @Override
  void close() throws JournalException;

  /**
   * The run as the journal knows it.
   *
   * @param name the run's name
   * @param specJson the spec it started with, as canonical JSON
   * @param specSha256 SHA-256 of {@code specJson}'s UTF-8 bytes, as 64 lower-case hex digits
   * @param startedAt when it started
   * @param status how it ended; empty while it has not ended
   * @param finishedAt when it ended; empty while it has not ended
   */
  record RunInfo(
      String name, String specJson, String specSha256, Instant startedAt, Optional<RunStatus> status,
      Optional<Instant> finishedAt) {

    /** Validates. */
    public RunInfo {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(specJson, "specJson");
      Objects.requireNonNull(specSha256, "specSha256");
      Objects.requireNonNull(startedAt, "startedAt");
      Objects.requireNonNull(status, "status");
      Objects.requireNonNull(finishedAt, "finishedAt");
      if (status.isPresent() != finishedAt.isPresent()) {
        throw new IllegalArgumentException("a run's status and finish time are both set or both empty");
      }
    }

    /** A run that started and has not ended; computes the spec's SHA-256. */
    public static RunInfo started(String name, String specJson, Instant startedAt) {
      return new RunInfo(name, specJson, sha256(specJson), startedAt, Optional.empty(), Optional.empty());
    }

    /** This run with another spec (its SHA-256 computed), as {@link Journal#updateSpec} records it. */
    public RunInfo withSpec(String newSpecJson) {
      return new RunInfo(name, newSpecJson, sha256(newSpecJson), startedAt, status, finishedAt);
    }

    /** This run, going on again after it ended. */
    public RunInfo reopened() {
      return new RunInfo(name, specJson, specSha256, startedAt, Optional.empty(), Optional.empty());
    }

    /** This run, ended. */
    public RunInfo finished(RunStatus status, Instant at) {
      return new RunInfo(name, specJson, specSha256, startedAt, Optional.of(status), Optional.of(at));
    }

    /** SHA-256 of the text's UTF-8 bytes, as 64 lower-case hex digits. */
    public static String sha256(String text) {
      try {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException("every Java runtime has SHA-256", e);
      }
    }
  }

  /**
   * One journalled task event.
   *
   * @param seq its position in append order: 1 for the first event of the run, then 2, 3, ...
   * @param task the task it happened to
   * @param event what happened
   */
  record Entry(long seq, TaskId task, TaskEvent event) {

    /** Validates. */
    public Entry {
      Objects.requireNonNull(task, "task");
      Objects.requireNonNull(event, "event");
      if (seq < 1) {
        throw new IllegalArgumentException("seq must be >= 1 but was " + seq);
      }
    }
  }

  /**
   * Everything a journal holds.
   *
   * @param run the run
   * @param events every event in append order
   * @param revisions the changes of the spec the run went on with, oldest first (empty for a run
   *     whose spec never changed, and in a journal that records none)
   */
  record Replay(RunInfo run, List<Entry> events, List<Revision> revisions) {

    /** Validates and copies. */
    public Replay {
      Objects.requireNonNull(run, "run");
      events = List.copyOf(events);
      revisions = List.copyOf(revisions);
    }

    /** A replay of a run whose spec never changed. */
    public Replay(RunInfo run, List<Entry> events) {
      this(run, events, List.of());
    }

    /**
     * Folds the events into {@code state} with the core's own fold, {@link RunState#apply}; pass a
     * fresh {@code new RunState(spec)} built from the stored spec.
     */
    public void applyTo(RunState state) {
      for (Entry e : events) {
        state.apply(e.task(), e.event());
      }
    }

    /** The sequence number of the last event, or 0 when there is none. */
    public long lastSeq() {
      return events.isEmpty() ? 0 : events.get(events.size() - 1).seq();
    }
  }
}
