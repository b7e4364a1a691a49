/**
 * Benchmarks of the scheduling core: the cost of one {@code Scheduler.decide} pass and the heap a
 * queued task costs. Run them with {@code scripts/bench-core.sh}.
 */
package dev.berth.bench;
