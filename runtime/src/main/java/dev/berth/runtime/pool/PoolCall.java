package dev.berth.runtime.pool;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchRequest;
import java.util.Optional;

/**
 * One call task's attempt in a pool: waiting in the pool for an engine, sent to one and queued behind
 * its earlier calls, running in it, or ended. Only a running call has a pid and id (its engine's);
 * ending it ends its engine, which its pool then replaces. A call that starts after its launch
 * returned tells its listener so, and the journal then shows its engine.
 */
final class PoolCall implements Execution {

  private final LaunchRequest request;
  private final CallRequest call;
  /** Hears of the call's start and exit; its {@code started} only adds to a queue, so it is called under this call's lock. */
  private final ExitListener onExit;
  private final WorkerPool pool;
  private volatile WarmWorker engine;
  private long requestId;
  private volatile boolean started;
  private boolean handedOver;
  private boolean unannounced;
  private volatile boolean ended;
  private volatile MeasuredUsage usage = MeasuredUsage.NONE;

  PoolCall(LaunchRequest request, CallRequest call, ExitListener onExit, WorkerPool pool) {
    this.request = request;
    this.call = call;
    this.onExit = onExit;
    this.pool = pool;
  }

  LaunchRequest request() {
    return request;
  }

  CallRequest call() {
    return call;
  }

  /** The call was sent to {@code to} as request {@code id}; it runs once the engine's earlier calls are answered. Pool lock held. */
  void sentTo(WarmWorker to, long id) {
    this.engine = to;
    this.requestId = id;
  }

  /** The engine the call was sent to, or null while it waits in the pool. */
  WarmWorker engine() {
    return engine;
  }

  /** Its request's id in its engine. */
  long requestId() {
    return requestId;
  }

  /** Its engine died before it began: it waits in the pool again, to go to another engine. Pool lock held. */
  void unsent() {
    engine = null;
  }

  /**
   * Its engine begins it (the calls before it in the engine are answered). Pool lock held.
   *
   * @return whether its listener is to be told, by {@link #announceStart} outside the lock
   */
  synchronized boolean begin() {
    started = true;
    unannounced = handedOver && !ended;
    return unannounced;
  }

  /**
   * Tells the listener the call now runs, in its engine, unless it was told already. Its exit is
   * reported after this, whichever thread reports which.
   */
  synchronized void announceStart() {
    WarmWorker e = engine;
    if (unannounced && e != null) {
      unannounced = false;
      onExit.started(e.pid(), Optional.of(e.name()));
    }
  }

  /** Its launch returned: from now on a start is announced to the listener, which saw none yet. */
  synchronized void handedOver() {
    handedOver = true;
  }

  /** Whether its engine began it. */
  boolean started() {
    return started;
  }

  /** Whether it ended (an ended call left queued in an engine is skipped there). */
  boolean ended() {
    return ended;
  }

  /**
   * Ends the call with {@code exitCode}, once; the exit is reported to its listener. The caller holds
   * no lock, so a listener may do anything.
   *
   * @return whether this ended it
   */
  boolean end(int exitCode, MeasuredUsage measured) {
    announceStart();
    synchronized (this) {
      if (ended) {
        return false;
      }
      ended = true;
      usage = measured;
    }
    onExit.exited(exitCode);
    return true;
  }

  @Override
  public long pid() {
    WarmWorker e = engine;
    return e == null || !started ? -1 : e.pid();
  }

  @Override
  public boolean isAlive() {
    return !ended;
  }

  /** Ends the engine running the call (its pool starts another), or takes the call from its queue. */
  @Override
  public void terminate(long graceMillis) {
    pool.terminate(this, graceMillis);
  }

  /** The engine running it, e.g. {@code fast/engine-3}, which reports show as the attempt's id. */
  @Override
  public Optional<String> clusterId() {
    WarmWorker e = engine;
    return e == null || !started ? Optional.empty() : Optional.of(e.name());
  }

  /**
   * An engine, Python or Java, makes a call's log files only when the call writes to them, and links
   * the task's {@code stdout.log} and {@code stderr.log} to them itself.
   */
  @Override
  public boolean linksItsLogs() {
    return true;
  }

  @Override
  public MeasuredUsage usage() {
    return usage;
  }
}
