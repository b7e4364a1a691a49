package dev.berth.simulation;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.journal.SqliteJournal;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's real SQLite journal, with what a crash and a sick disk do to it: writes stay in this
 * process until a flush hands them to SQLite, so a Berth killed with SIGKILL ({@link #crash()})
 * loses exactly what it had not flushed, and a flush can fail as an I/O error or a full disk makes
 * SQLite's fail.
 */
final class CrashableJournal implements Journal {

  private final SqliteJournal journal;
  private final List<Runnable> pending = new ArrayList<>();
  private String failNext;
  private boolean crashed;
  /** Whether the disk is full: every flush fails until it is freed. */
  static final class Disk {
    boolean full;
  }

  private final Disk disk;

  CrashableJournal(SqliteJournal journal, Disk disk) {
    this.journal = journal;
    this.disk = disk;
  }

  /** The next flush fails with this SQLite message. */
  void failNextFlush(String message) {
    failNext = message;
  }

  /** The process holding the journal died: what it had not flushed is lost, and its connection closes. */
  void crash() {
    crashed = true;
    pending.clear();
    close();
  }

  @Override
  public void start(String runName, String specJson, java.time.Instant startedAt) throws JournalException {
    journal.start(runName, specJson, startedAt);
  }

  @Override
  public void append(TaskId task, TaskEvent event) {
    pending.add(() -> journal.append(task, event));
  }

  @Override
  public void updateSpec(String specJson) {
    pending.add(() -> journal.updateSpec(specJson));
  }

  @Override
  public void reopenRun() {
    pending.add(journal::reopenRun);
  }

  @Override
  public void flush() throws JournalException {
    check();
    pending.forEach(Runnable::run);
    pending.clear();
    journal.flush();
  }

  @Override
  public void finish(RunStatus status, java.time.Instant finishedAt) throws JournalException {
    check();
    pending.forEach(Runnable::run);
    pending.clear();
    journal.finish(status, finishedAt);
  }

  private void check() throws JournalException {
    if (crashed) {
      throw new IllegalStateException("a dead Berth wrote to its journal");
    }
    if (disk.full) {
      throw new JournalException(journal.file(), "database or disk is full");
    }
    if (failNext != null) {
      String m = failNext;
      failNext = null;
      throw new JournalException(journal.file(), m);
    }
  }

  @Override
  public Optional<Replay> replay() throws JournalException {
    return journal.replay();
  }

  @Override
  public void close() {
    try {
      pending.clear();
      journal.close();
    } catch (JournalException e) {
      // the Berth is gone; what was flushed stands
    }
  }
}
