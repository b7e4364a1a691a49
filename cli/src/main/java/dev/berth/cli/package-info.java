/**
 * The {@code berth} command. The only composition root: it builds the real clock, probes,
 * executors and timers and hands them to the runtime.
 */
package dev.berth.cli;
