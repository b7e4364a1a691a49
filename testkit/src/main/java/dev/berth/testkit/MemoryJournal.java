package dev.berth.testkit;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link Journal} in memory, for engine tests. It keeps the durability rule of a real journal:
 * writes are buffered until {@link #flush()}, and {@link #reopen()} plays a crash and restart,
 * handing back a journal that holds only what was flushed. It also counts flushes, so a test can
 * check that the engine commits in groups. Specs are not checked to be JSON.
 */
public final class MemoryJournal implements Journal {

  /** What survives a crash: the flushed contents, shared by every handle {@link #reopen()} makes. */
  private static final class Stored {
    private RunInfo run;
    private final List<Entry> events = new ArrayList<>();
    private int flushes;
  }

  private final Stored stored;
  private final List<Runnable> buffer = new ArrayList<>();
  private boolean closed;

  /** An empty journal: no run has started. */
  public MemoryJournal() {
    this(new Stored());
  }

  private MemoryJournal(Stored stored) {
    this.stored = stored;
  }

  /**
   * Plays a crash and a restart: this journal drops what it buffered and can no longer be used; the
   * journal returned holds exactly what was flushed, as a new process opening the file would see it.
   */
  public MemoryJournal reopen() {
    buffer.clear();
    closed = true;
    return new MemoryJournal(stored);
  }

  /** How many flushes wrote something (including those of {@link #finish} and {@link #close}). */
  public int flushes() {
    return stored.flushes;
  }

  /** How many writes are buffered and not yet flushed. */
  public int pending() {
    return buffer.size();
  }

  @Override
  public void start(String runName, String specJson, Instant startedAt) {
    open();
    if (stored.run != null) {
      throw new IllegalStateException("the journal already holds run " + stored.run.name());
    }
    stored.run = RunInfo.started(runName, specJson, startedAt);
  }

  @Override
  public void append(TaskId task, TaskEvent event) {
    writable();
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(event, "event");
    buffer.add(() -> stored.events.add(new Entry(stored.events.size() + 1, task, event)));
  }

  @Override
  public void updateSpec(String specJson) {
    writable();
    Objects.requireNonNull(specJson, "specJson");
    buffer.add(() -> stored.run = stored.run.withSpec(specJson));
  }

  @Override
  public void reopenRun() {
    writable();
    buffer.add(() -> stored.run = stored.run.reopened());
  }

  @Override
  public void flush() {
    open();
    if (!buffer.isEmpty()) {
      buffer.forEach(Runnable::run);
      buffer.clear();
      stored.flushes++;
    }
  }

  @Override
  public void finish(RunStatus status, Instant finishedAt) {
    Journal.ending(status);
    writable();
    Objects.requireNonNull(finishedAt, "finishedAt");
    buffer.add(() -> stored.run = stored.run.finished(status, finishedAt));
    flush();
  }

  @Override
  public Optional<Replay> replay() {
    open();
    if (stored.run == null) {
      return Optional.empty();
    }
    return Optional.of(new Replay(stored.run, stored.events));
  }

  @Override
  public void close() {
    if (!closed) {
      flush();
      closed = true;
    }
  }

  private void writable() {
    open();
    if (stored.run == null) {
      throw new IllegalStateException("start the run before writing to its journal");
    }
  }

  private void open() {
    if (closed) {
      throw new IllegalStateException("the journal is closed");
    }
  }
}
