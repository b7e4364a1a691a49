/**
 * The control channel between Berth and two-stage task processes: one Unix domain socket per run,
 * line-based JSON in both directions, one connection per task attempt, authenticated by a random
 * per-attempt token. Berth sends {@code load}, {@code train} and {@code exit}; the task reports its
 * status, items, result and failures. The wire format is described in {@code docs/protocol.md}.
 */
package dev.berth.runtime.control.channel;
