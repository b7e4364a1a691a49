/**
 * The control channel between Berth and two-stage task processes: one Unix domain socket per run,
 * line-based JSON in both directions, one connection per task attempt, authenticated by a random
 * per-attempt token. Berth sends {@code load}, {@code train} and {@code exit}; the task reports its
 * status, items, result and failures. The lines themselves (framing, JSON, messages) are the
 * {@code dev.berth.protocol} module's, which the task worker shares; the wire format is described
 * in {@code docs/protocol.md}.
 */
package dev.berth.runtime.control.channel;
