package dev.berth.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a journal's commits durable by syncing its write-ahead log ({@code JOURNAL-wal}) and then
 * recording them in the {@link CommitMark}: at once for a flush that must be durable when it
 * returns, or on a thread of its own ({@code berth-journal-sync}) for a flush that only needs to
 * survive the process, where one sync covers every commit made while the last one ran.
 *
 * <p>SQLite itself runs with {@code synchronous=NORMAL}, so a commit is in the operating system's
 * hands when it returns (safe from {@code kill -9}); a sync of the log afterwards makes every frame
 * written before it durable, as {@code synchronous=FULL} would have, and a checkpoint syncs what it
 * moves into the database. The log is opened once and kept open until after the connection closes.
 */
final class WalSync implements AutoCloseable {

  private final Path wal;
  private final CommitMark mark;
  private final boolean syncs;
  private final List<Runnable> waiting = new ArrayList<>();
  /** Held while syncing and marking, so a durable flush and the thread never interleave; never while waiting. */
  private final Object syncing = new Object();
  private FileChannel channel;
  private long requested;
  private long synced;
  private Thread thread;
  private boolean closed;
  private IOException failure;

  /**
   * @param syncs whether commits are synced ({@link Durability#FULL}); otherwise they are only marked
   */
  WalSync(Path journal, CommitMark mark, boolean syncs) {
    this.wal = journal.resolveSibling(journal.getFileName() + "-wal");
    this.mark = mark;
    this.syncs = syncs;
  }

  /** Makes commits up to {@code seq} durable before returning. */
  void now(long seq) throws IOException {
    syncTo(seq);
  }

  /** Makes commits up to {@code seq} durable soon, then runs {@code then}, on the sync thread. */
  synchronized void soon(long seq, Runnable then) {
    if (closed) {
      throw new IllegalStateException("the journal is closed");
    }
    requested = Math.max(requested, seq);
    waiting.add(then);
    if (thread == null) {
      thread = new Thread(this::loop, "berth-journal-sync");
      thread.setDaemon(true);
      thread.start();
    }
    notifyAll();
  }

  /** Syncs what is still waiting and stops the thread; the log's file is closed after the connection. */
  void drain() {
    Thread t;
    synchronized (this) {
      closed = true;
      notifyAll();
      t = thread;
    }
    if (t != null && t != Thread.currentThread()) {
      boolean interrupted = false;
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    synchronized (syncing) {
      closeChannel();
    }
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // every sync that mattered has returned
      }
    }
  }

  private void loop() {
    while (true) {
      List<Runnable> done;
      long target;
      synchronized (this) {
        while (waiting.isEmpty() && !closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            closed = true;
          }
        }
        if (waiting.isEmpty()) {
          return;
        }
        target = requested;
        done = new ArrayList<>(waiting);
        waiting.clear();
      }
      try {
        syncTo(target); // commits made meanwhile wait for the next round
      } catch (IOException e) {
        synchronized (this) {
          failure = e; // the writer's next durable flush reports it
        }
      }
      done.forEach(Runnable::run);
    }
  }

  /** A sync that failed in the background, once; empty when none did. */
  synchronized IOException takeFailure() {
    IOException f = failure;
    failure = null;
    return f;
  }

  private void syncTo(long seq) throws IOException {
    synchronized (syncing) {
      if (seq <= synced) {
        return;
      }
      if (syncs) {
        try {
          if (channel == null) {
            channel = FileChannel.open(wal, StandardOpenOption.READ);
          }
          channel.force(false);
        } catch (NoSuchFileException e) {
          // no log: every commit is in the database file already, which its checkpoint synced
        }
      }
      synced = seq;
      mark.write(seq);
    }
  }
}
