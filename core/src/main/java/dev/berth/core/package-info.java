/**
 * Berth's scheduling core: value types, the task lifecycle and the deterministic decision function.
 *
 * <p>Nothing in this module starts threads, performs I/O, reads a clock or iterates a hash-ordered
 * collection: every decision is a function of the run state, a resource snapshot and {@code now}.
 */
package dev.berth.core;
