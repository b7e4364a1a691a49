package dev.berth.runtime.pool;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchRequest;
import java.util.Optional;

/**
 * One call task's attempt in a pool: waiting for an engine, running in one, or ended. Its pid and id
 * are its engine's; ending it ends its engine, which its pool then replaces.
 */
final class PoolCall implements Execution {

  private final LaunchRequest request;
  private final CallRequest call;
  private final ExitListener onExit;
  private final EnginePool pool;
  private volatile PoolEngine engine;
  private volatile boolean ended;
  private volatile MeasuredUsage usage = MeasuredUsage.NONE;

  PoolCall(LaunchRequest request, CallRequest call, ExitListener onExit, EnginePool pool) {
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

  /** The engine now running it. */
  void runsIn(PoolEngine running) {
    this.engine = running;
  }

  /**
   * Ends the call with {@code exitCode}, once; the exit is reported to its listener. The caller holds
   * no lock, so a listener may do anything.
   *
   * @return whether this ended it
   */
  boolean end(int exitCode, MeasuredUsage measured) {
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
    PoolEngine e = engine;
    return e == null ? -1 : e.pid();
  }

  @Override
  public boolean isAlive() {
    return !ended;
  }

  /** Ends the engine running the call (its pool starts another), or takes the call from the queue. */
  @Override
  public void terminate(long graceMillis) {
    pool.terminate(this, graceMillis);
  }

  /** The engine, e.g. {@code fast/engine-3}, which reports show as the attempt's id. */
  @Override
  public Optional<String> clusterId() {
    PoolEngine e = engine;
    return e == null ? Optional.empty() : Optional.of(e.name());
  }

  @Override
  public MeasuredUsage usage() {
    return usage;
  }
}
