/**
 * Engine pools: named pools of persistent workers that run many short call tasks each. What a pool
 * is ({@link dev.berth.core.model.PoolSpec}) and which engine takes the next call
 * ({@link dev.berth.core.pool.WorkerScheme}), decided purely; the runtime starts and feeds engines.
 */
package dev.berth.core.pool;
