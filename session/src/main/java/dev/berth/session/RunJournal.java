package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.journal.SpecCodec;
import dev.berth.journal.SpecDiff;
import dev.berth.journal.SqliteJournal;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Opens or creates a run's journal ({@code <workdir>/.berth/journal.db}) and decides whether the
 * run starts fresh or resumes, and with which spec.
 */
final class RunJournal {

  /** What to do when the spec changed since the run started. */
  enum AllowChanged {
    /** Keep running the spec the run started with. */
    STORED,
    /**
     * Run the new spec: tasks that kept their id keep their history (finished ones do not run
     * again), new tasks run, removed tasks are dropped. The old journal is kept beside the new one.
     */
    NEW
  }

  /**
   * The journal to run with.
   *
   * @param journal the open journal
   * @param spec the spec to run
   * @param replay what the journal held, when the run resumes
   * @param finished when the run had already ended, its status
   */
  record Opened(Journal journal, RunSpec spec, Optional<Journal.Replay> replay, Optional<String> finished) {}

  private RunJournal() {}

  static Path file(Path runDir) {
    return runDir.resolve(".berth").resolve("journal.db");
  }

  /**
   * Opens the run's journal: a new one for a run that never started, or the existing one to resume.
   *
   * @param spec the spec given now, or null to resume with the stored spec
   * @throws UserError when the spec changed and {@code allow} is null, naming every difference
   */
  static Opened open(Path runDir, RunSpec spec, AllowChanged allow, Instant now) throws JournalException, UserError {
    Path file = file(runDir);
    if (Files.exists(file) && emptyFile(file)) {
      // the previous scheduler stopped while creating the journal, before the run started
      try {
        Files.delete(file);
      } catch (IOException e) {
        throw new JournalException(file, "cannot replace the empty journal: " + e.getMessage(), e);
      }
    }
    if (!Files.exists(file)) {
      if (spec == null) {
        throw new UserError(runDir + ": no run was started here (no " + file + ")");
      }
      return fresh(file, spec, now);
    }
    SqliteJournal journal = SqliteJournal.open(file);
    Optional<Journal.Replay> replay = journal.replay();
    if (replay.isEmpty()) {
      if (spec == null) {
        journal.close();
        throw new UserError(runDir + ": the run here never started; run its spec again");
      }
      journal.start(spec.name(), SpecCodec.encode(spec), now);
      return new Opened(journal, spec, Optional.empty(), Optional.empty());
    }
    RunSpec stored;
    try {
      stored = SpecCodec.decode(replay.get().run().specJson());
    } catch (IllegalArgumentException e) {
      journal.close();
      throw new UserError(file + ": the spec this run started with cannot be read (" + e.getMessage()
          + "); use --fresh to start over");
    }
    Optional<String> finished = replay.get().run().status().map(Enum::name);
    if (spec == null || finished.isPresent()) {
      return new Opened(journal, stored, replay, finished);
    }
    List<String> differences = SpecDiff.between(stored, spec);
    if (differences.isEmpty() || allow == AllowChanged.STORED) {
      return new Opened(journal, differences.isEmpty() ? spec : stored, replay, Optional.empty());
    }
    if (allow == null) {
      journal.close();
      throw new UserError("the spec changed since this run started in " + runDir + ": "
          + String.join("; ", differences)
          + " (use --allow-changed=stored to go on with the spec it started with, --allow-changed=new to"
          + " apply the changes, or --fresh to start over)");
    }
    journal.close();
    return migrate(file, spec, replay.get(), now);
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
    journal.start(spec.name(), SpecCodec.encode(spec), now);
    return new Opened(journal, spec, Optional.empty(), Optional.empty());
  }

  /** A journal for the new spec that carries over the history of every task that kept its id. */
  private static Opened migrate(Path file, RunSpec spec, Journal.Replay old, Instant now) throws JournalException {
    Path kept = file.resolveSibling("journal.db.before-" + now.toEpochMilli());
    try {
      Files.move(file, kept);
      for (String suffix : List.of("-wal", "-shm")) {
        Path side = file.resolveSibling(file.getFileName() + suffix);
        if (Files.exists(side)) {
          Files.move(side, kept.resolveSibling(kept.getFileName() + suffix));
        }
      }
    } catch (IOException e) {
      throw new JournalException(file, "cannot set the old journal aside: " + e.getMessage(), e);
    }
    SqliteJournal journal = SqliteJournal.create(file);
    journal.start(spec.name(), SpecCodec.encode(spec), old.run().startedAt());
    Set<TaskId> ids = spec.tasks().stream().map(t -> t.id()).collect(Collectors.toSet());
    for (Journal.Entry e : old.events()) {
      if (ids.contains(e.task())) {
        journal.append(e.task(), e.event());
      }
    }
    journal.flush();
    return new Opened(journal, spec, journal.replay(), Optional.empty());
  }

  /** A problem with what the user asked, reported as one line with exit code 2. */
  static final class UserError extends Exception {
    private static final long serialVersionUID = 1L;

    UserError(String message) {
      super(message);
    }
  }
}
