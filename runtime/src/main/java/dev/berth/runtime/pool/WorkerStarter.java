package dev.berth.runtime.pool;

import dev.berth.spi.LaunchException;

/** Starts a new engine for a pool, for the call that needs it (whose device and environment it takes). */
@FunctionalInterface
interface WorkerStarter {

  /**
   * A started engine, listened to.
   *
   * @throws LaunchException when the engine cannot start
   */
  WarmWorker start(PoolCall forCall) throws LaunchException;
}
