package dev.berth.session;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.time.Instant;
import java.util.Optional;

/**
 * A run's journal that can be {@link #detach() detached} when the JVM exits with the run left to
 * resume: from then on nothing more is written, so the journal looks exactly as after a crash and
 * the next session on the folder resumes. Written by the engine's thread only; {@link #detach()}
 * may come from any thread.
 */
final class DetachableJournal implements Journal {

  private final Journal delegate;
  private volatile boolean detached;

  DetachableJournal(Journal delegate) {
    this.delegate = delegate;
  }

  /**
   * From now on nothing is written (buffered writes are dropped, flushes and the end do nothing):
   * for a JVM that exits without closing the session, so that the run is left unfinished and resumes.
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
  public void updateSpec(String specJson) {
    if (!detached) {
      delegate.updateSpec(specJson);
    }
  }

  @Override
  public void reopenRun() {
    if (!detached) {
      delegate.reopenRun();
    }
  }

  @Override
  public void flush() throws JournalException {
    if (!detached) {
      delegate.flush();
    }
  }

  /** As the delegate's; once detached nothing is written, and nothing is ever said to be durable. */
  @Override
  public void flush(Runnable whenDurable) throws JournalException {
    if (!detached) {
      delegate.flush(whenDurable);
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
}
