/**
 * Engine pools: call tasks ({@code call: module:function}) run in warm Python engines instead of a
 * process each. {@link dev.berth.runtime.pool.WorkerPoolExecutor} sends them to their pool and every
 * other attempt to the process executor; admission, placement, retries, timeouts and the journal
 * treat a call exactly as a process. See docs/pools.md.
 */
package dev.berth.runtime.pool;
