package dev.berth.session;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.Revision;
import dev.berth.core.scheduling.RetrySelection;
import dev.berth.journal.SpecCodec;
import dev.berth.journal.SpecChanges;
import dev.berth.journal.SqliteJournal;
import dev.berth.report.ReportFiles;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.engine.UnjournaledExits;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Opens or creates a run's journal ({@code <workdir>/.berth/journal.db}) and decides whether the
 * run starts fresh or resumes, and with which spec. The caller holds the folder's lock.
 */
final class RunJournal {

  /**
   * The journal to run with.
   *
   * @param journal the open journal, started
   * @param spec the spec to run
   * @param replay what the journal held, when the run resumes
   * @param news what to tell before the run goes on (the changes of its spec it applies), one line
   *     each; empty when there is nothing to tell
   */
  record Opened(Journal journal, RunSpec spec, Optional<Journal.Replay> replay, List<String> news) {

    /** Copies the news. */
    Opened {
      news = List.copyOf(news);
    }

    /** A journal opened with nothing to tell. */
    Opened(Journal journal, RunSpec spec, Optional<Journal.Replay> replay) {
      this(journal, spec, replay, List.of());
    }
  }

  private RunJournal() {}

  /** The journal's file in a run folder. */
  static Path file(Path runDir) {
    return runDir.resolve(".berth").resolve("journal.db");
  }

  /**
   * Opens the run's journal: a new one for a run that never started, or the existing one to resume.
   *
   * @param given the spec given now, or null to resume with the stored spec
   * @param changes what to do when {@code given} differs from the stored spec
   * @param grows whether the spec grows by submissions (a session): then the stored spec's groups
   *     come back under {@code given}'s name, configuration, GPUs and reporting, and no change is refused
   * @throws RunFinishedException when the run had already ended (the journal is closed)
   * @throws SessionException when the run cannot resume as asked, naming why
   */
  static Opened open(Path runDir, RunSpec given, SpecChange changes, boolean grows, Instant now)
      throws JournalException, SessionException {
    return open(runDir, given, changes, grows, null, now);
  }

  /**
   * Opens the run's journal as {@link #open(Path, RunSpec, SpecChange, boolean, Instant)} does, and
   * first, when {@code retry} is given, reopens the tasks it chooses (see {@link Retrying}), so that
   * a run that had ended goes on.
   *
   * @param retry what to retry, or null
   * @throws SessionException also when {@code retry} names no task, or there is nothing to retry, or
   *     the folder holds no run to retry
   */
  static Opened open(Path runDir, RunSpec given, SpecChange changes, boolean grows, RetrySelection retry, Instant now)
      throws JournalException, SessionException {
    if (retry != null && !Files.exists(file(runDir))) {
      throw new SessionException(runDir + ": no run to retry here (no " + file(runDir) + ")");
    }
    Path file = file(runDir);
    boolean empty = Files.exists(file) && emptyFile(file);
    if (empty || !Files.exists(file)) {
      if (given == null) {
        throw new SessionException(runDir + ": no run was started here (" + (empty ? "empty " : "no ") + file + ")");
      }
      refuseOverTraces(runDir, file, given, empty);
    }
    if (empty) {
      // an older Berth stopped while creating the journal, before the run started
      try {
        Files.delete(file);
      } catch (IOException e) {
        throw new JournalException(file, "cannot replace the empty journal: " + e.getMessage(), e);
      }
    }
    if (!Files.exists(file)) {
      return fresh(file, given, now);
    }
    SqliteJournal journal = SqliteJournal.open(file);
    try {
      return resume(journal, runDir, given, changes, grows, retry, now);
    } catch (JournalException | SessionException | RuntimeException e) {
      closeQuietly(journal);
      throw e;
    }
  }

  private static Opened resume(SqliteJournal journal, Path runDir, RunSpec given, SpecChange changes, boolean grows,
      RetrySelection retry, Instant now) throws JournalException, SessionException {
    Path file = file(runDir);
    Optional<Journal.Replay> replay = journal.replay();
    if (retry != null && replay.isPresent()) {
      try {
        replay = Optional.of(Retrying.reopen(journal, replay.get(), retry, runDir, now));
      } catch (IllegalArgumentException e) { // the stored spec cannot be read
        throw new SessionException(SessionException.Reason.SPEC_UNREADABLE,
            file + ": the spec this run started with cannot be read (" + e.getMessage() + ")", e);
      }
    }
    if (replay.isEmpty()) {
      if (given == null) {
        throw new SessionException(runDir + ": the run here never started; run its spec again");
      }
      refuseUnjournaled(runDir, given, List.of());
      journal.start(given.name(), SpecCodec.encode(given, AdapterTables.ALL), now);
      return new Opened(journal, given, Optional.empty());
    }
    Journal.RunInfo run = replay.get().run();
    if (run.status().isPresent() && (given == null || grows)) {
      throw finished(runDir, run, null);
    }
    RunSpec stored;
    try {
      stored = SpecCodec.decode(run.specJson(), AdapterTables.ALL);
    } catch (IllegalArgumentException e) {
      if (run.status().isPresent()) {
        throw finished(runDir, run, null); // nothing of it runs again, whatever its spec was
      }
      throw new SessionException(SessionException.Reason.SPEC_UNREADABLE,
          file + ": the spec this run started with cannot be read (" + e.getMessage() + ")", e);
    }
    boolean ended = run.status().isPresent();
    if (!ended) {
      refuseUnjournaled(runDir, stored, replay.get().events());
    }
    if (given == null) {
      return new Opened(journal, stored, replay);
    }
    if (grows) {
      RunSpec frame = new RunSpec(given.name(), given.workdir(), given.config(), stored.groups(),
          given.groupsInParallel(), given.gpus(), given.reporting(), given.adapters());
      return new Opened(journal, frame, replay);
    }
    SpecChanges differences = SpecChanges.between(stored, given, AdapterTables.ALL);
    if (ended && differences.tasksOnly() && differences.added() + differences.removed() == 0) {
      throw finished(runDir, run, null); // the same tasks, at most in another order: nothing to run
    }
    if (ended && changes == SpecChange.STORED) {
      throw finished(runDir, run, differences.headline());
    }
    if (differences.isEmpty() || changes == SpecChange.STORED) {
      return new Opened(journal, differences.isEmpty() ? given : stored, replay);
    }
    // A finished run grows by the tasks a new spec adds (and drops those it removes) without being asked:
    // nothing that ran runs again. A change to what ran, or to the run's settings, is applied only when asked.
    if (changes == SpecChange.REFUSE && !(ended && differences.tasksOnly())) {
      throw new SessionException(SessionException.Reason.SPEC_CHANGED, "the spec changed since this run "
          + (ended ? "finished" : "started") + " in " + runDir + ": " + differences.text(), null);
    }
    if (ended) {
      refuseUnjournaled(runDir, stored, replay.get().events());
    }
    journal.close();
    Path kept = file.resolveSibling("journal.db.before-" + now.toEpochMilli());
    List<String> news = new ArrayList<>();
    news.add("the spec changed since " + run.name() + (ended ? " finished (" + run.status().get() + ")" : " started")
        + ": " + differences.headline());
    differences.details().forEach(line -> news.add("  " + line));
    news.add("going on with the changed spec: tasks keep their history by id, so what ran does not run again"
        + " (the journal before the change is kept as " + kept + ")");
    Revision revision = new Revision(now, differences.added(), differences.removed(), differences.changed(),
        differences.headline());
    return migrate(file, kept, given, replay.get(), revision, news, now);
  }

  private static RunFinishedException finished(Path runDir, Journal.RunInfo run, String unapplied) {
    return new RunFinishedException(runDir, run.name(), run.status().orElseThrow(), run.finishedAt().orElseThrow(),
        runDir.resolve(ReportFiles.JSON), unapplied);
  }

  /**
   * A journal that lost committed events (its write-ahead log and commit mark removed together) while
   * the run's folder shows attempts it does not know ended is refused: resuming would run them again.
   */
  private static void refuseUnjournaled(Path runDir, RunSpec spec, List<Journal.Entry> events)
      throws SessionException {
    Map<TaskId, Integer> launched = new HashMap<>();
    for (Journal.Entry e : events) {
      if (e.event() instanceof TaskEvent.Launched l) {
        launched.merge(e.task(), l.attempt(), Math::max);
      }
    }
    List<String> lost = UnjournaledExits.find(spec, TaskRunners.layout(spec, new RunLayout(runDir)), launched);
    if (!lost.isEmpty()) {
      int shown = Math.min(lost.size(), 5);
      throw new SessionException(SessionException.Reason.JOURNAL_LOST, file(runDir) + " does not know "
          + lost.size() + (lost.size() == 1 ? " attempt" : " attempts") + " that the run's folder shows ended ("
          + String.join(", ", lost.subList(0, shown)) + (lost.size() > shown ? " and " + (lost.size() - shown)
          + " more" : "") + "): its write-ahead log (journal.db-wal) and commit mark were lost, and resuming would"
          + " run finished tasks again; restore the journal's files, or start over", null);
    }
  }

  /** A journal that is gone while the run's files are there is never replaced by a fresh start over them. */
  private static void refuseOverTraces(Path runDir, Path file, RunSpec given, boolean empty) throws SessionException {
    Optional<String> traces = RunTraces.left(runDir, given);
    if (traces.isPresent()) {
      throw new SessionException(SessionException.Reason.JOURNAL_LOST, runDir + " holds an earlier run ("
          + traces.get() + ") but its journal " + file + (empty ? " is empty" : " is missing")
          + ", so it cannot resume; restore the journal, or start over",
          null);
    }
  }

  private static boolean emptyFile(Path file) {
    try {
      return Files.size(file) == 0;
    } catch (IOException e) {
      return false;
    }
  }

  private static Opened fresh(Path file, RunSpec spec, Instant now) throws JournalException {
    SqliteJournal journal = SqliteJournal.create(file);
    journal.start(spec.name(), SpecCodec.encode(spec, AdapterTables.ALL), now);
    return new Opened(journal, spec, Optional.empty());
  }

  /**
   * A journal for the new spec that carries over the history of every task that kept its id, and the
   * revisions of the old one, with this one after them. The run has not ended in it: one that had
   * ended goes on.
   *
   * @param kept where the old journal is set aside
   */
  private static Opened migrate(Path file, Path kept, RunSpec spec, Journal.Replay old, Revision revision,
      List<String> news, Instant now) throws JournalException {
    try {
      Files.move(file, kept);
      for (Path side : SqliteJournal.sideFiles(file)) {
        if (Files.exists(side)) {
          String suffix = side.getFileName().toString().substring(file.getFileName().toString().length());
          Files.move(side, kept.resolveSibling(kept.getFileName() + suffix));
        }
      }
    } catch (IOException e) {
      throw new JournalException(file, "cannot set the old journal aside: " + e.getMessage(), e);
    }
    SqliteJournal journal = SqliteJournal.create(file);
    journal.start(spec.name(), SpecCodec.encode(spec, AdapterTables.ALL), old.run().startedAt());
    Set<TaskId> ids = spec.tasks().stream().map(t -> t.id()).collect(Collectors.toSet());
    for (Journal.Entry e : old.events()) {
      if (ids.contains(e.task())) {
        journal.append(e.task(), e.event());
      }
    }
    old.revisions().forEach(journal::revise);
    journal.revise(revision);
    journal.flush();
    return new Opened(journal, spec, journal.replay(), news);
  }

  private static void closeQuietly(Journal journal) {
    try {
      journal.close();
    } catch (JournalException | RuntimeException e) {
      // the problem being reported is the one that matters
    }
  }
}
