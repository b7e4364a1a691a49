/**
 * Runs a {@link dev.berth.task.BerthTask} as a Berth task process: {@link
 * dev.berth.task.worker.WorkerMain} connects to Berth's control socket and follows its commands,
 * or, run by hand, loads and trains on the CPU and prints the result.
 */
package dev.berth.task.worker;
