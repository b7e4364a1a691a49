/**
 * What Berth's executors and reports share for acting on the operating system: running a command
 * ({@link dev.berth.os.CommandRunner}, {@link dev.berth.os.ProcessCommandRunner}), checking and
 * preparing an attempt's folders and program ({@link dev.berth.os.LaunchPreparation}), reading the end
 * of a log ({@link dev.berth.os.LogTails}), replacing a file whole ({@link dev.berth.os.AtomicFiles}),
 * and daemon threads and the real {@link dev.berth.spi.Timers} ({@link dev.berth.os.DaemonThreads},
 * {@link dev.berth.os.SystemTimers}). Nothing here knows about scheduling or Slurm.
 */
package dev.berth.os;
