/**
 * The one composition root of a run on this machine: {@link dev.berth.session.LocalSession} wires
 * the folder's lock, the journal, the probes, the executor, the timers, the engine, the
 * notifications and the reports, for the {@code berth} command and the Java API alike.
 */
package dev.berth.session;
