package dev.berth.client;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.journal.SpecCodec;
import dev.berth.journal.SqliteJournal;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A session's journal, {@code <workdir>/.berth/journal.db}: the SQLite journal of a run, opened or
 * created as {@code berth run} does, that the session can {@link #detach()} when the JVM exits
 * without {@code close()}: from then on nothing more is written, so the journal looks exactly as
 * after a crash and the next session on the folder resumes. Written by the engine's thread only;
 * {@link #detach()} may come from any thread.
 */
final class SessionJournal implements Journal {

  /**
   * What was found in the folder.
   *
   * @param journal the journal to write to, started
   * @param replay what an unfinished earlier session left, to resume; empty for a new session
   * @param storedSpec the spec the earlier session had grown to, with every group it submitted;
   *     empty for a new session
   */
  record Opened(SessionJournal journal, Optional<Replay> replay, Optional<RunSpec> storedSpec) {}

  private final SqliteJournal delegate;
  private volatile boolean detached;

  private SessionJournal(SqliteJournal delegate) {
    this.delegate = delegate;
  }

  static Path file(Path runDir) {
    return runDir.resolve(".berth").resolve("journal.db");
  }

  /**
   * Opens the folder's journal: a new one (started with {@code spec}) when no session ran here, or
   * the one of an unfinished session, to resume. The caller holds the folder's lock.
   *
   * @throws IllegalStateException when the folder holds a session that finished (naming what to
   *     do), or a journal that cannot be read
   */
  static Opened open(Path runDir, RunSpec spec, Instant now) {
    Path file = file(runDir);
    try {
      if (Files.exists(file) && Files.size(file) == 0) {
        Files.delete(file); // the earlier session stopped while creating it, before it started
      }
      if (!Files.exists(file)) {
        SqliteJournal created = SqliteJournal.create(file);
        created.start(spec.name(), SpecCodec.encode(spec), now);
        return new Opened(new SessionJournal(created), Optional.empty(), Optional.empty());
      }
      SqliteJournal journal = SqliteJournal.open(file);
      try {
        Optional<Replay> replay = journal.replay();
        if (replay.isEmpty()) {
          journal.start(spec.name(), SpecCodec.encode(spec), now);
          return new Opened(new SessionJournal(journal), Optional.empty(), Optional.empty());
        }
        RunInfo run = replay.get().run();
        if (run.status().isPresent()) {
          throw new IllegalStateException("the session folder " + runDir + " holds session " + run.name()
              + ", which finished already (" + run.status().get() + " at " + run.finishedAt().orElseThrow()
              + "; its report is " + runDir.resolve("report.json") + "). Use BerthOptions.builder().fresh(true)"
              + " to move it aside and start a new session there, or give the session another name or workdir");
        }
        RunSpec stored;
        try {
          stored = SpecCodec.decode(run.specJson());
        } catch (IllegalArgumentException e) {
          throw new IllegalStateException(file + ": the stored session cannot be read: " + e.getMessage(), e);
        }
        return new Opened(new SessionJournal(journal), replay, Optional.of(stored));
      } catch (RuntimeException | JournalException e) {
        closeQuietly(journal);
        throw e;
      }
    } catch (JournalException e) {
      throw new IllegalStateException("cannot open the session journal: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the session journal " + file, e);
    }
  }

  /**
   * From now on nothing is written (buffered writes are dropped, flushes and the end do nothing):
   * for a JVM that exits without {@code close()}, so that the session is left unfinished and resumes.
   */
  void detach() {
    detached = true;
  }

  @Override
  public void start(String runName, String specJson, Instant startedAt) throws JournalException {
    delegate.start(runName, specJson, startedAt);
  }

  @Override
  public void append(TaskId task, TaskEvent event) {
    if (!detached) {
      delegate.append(task, event);
    }
  }

  @Override
  public void putResult(TaskId task, Map<String, String> result) {
    if (!detached) {
      delegate.putResult(task, result);
    }
  }

  @Override
  public void putItem(TaskId task, String name, String json) {
    if (!detached) {
      delegate.putItem(task, name, json);
    }
  }

  @Override
  public void updateSpec(String specJson) {
    if (!detached) {
      delegate.updateSpec(specJson);
    }
  }

  @Override
  public void flush() throws JournalException {
    if (!detached) {
      delegate.flush();
    }
  }

  @Override
  public void finish(RunStatus status, Instant finishedAt) throws JournalException {
    if (!detached) {
      delegate.finish(status, finishedAt);
    }
  }

  @Override
  public Optional<Replay> replay() throws JournalException {
    return delegate.replay();
  }

  /** Closes the file; after {@link #detach()} it does nothing (the JVM is exiting and writes nothing more). */
  @Override
  public void close() throws JournalException {
    if (!detached) {
      delegate.close();
    }
  }

  private static void closeQuietly(SqliteJournal journal) {
    try {
      journal.close();
    } catch (JournalException | RuntimeException e) {
      // the problem being reported is the one that matters
    }
  }
}
