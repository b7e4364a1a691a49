package dev.berth.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Reads a process's start time from {@code /proc/PID/stat} (field 22, clock ticks after boot): with
 * the pid, it names one process for good, since a pid is reused only by a later process.
 */
public final class ProcStat implements ProcessLiveness {

  private final Path proc;

  /** Reads the system's {@code /proc}. */
  public ProcStat() {
    this(Path.of("/proc"));
  }

  ProcStat(Path proc) {
    this.proc = proc;
  }

  /** The start time of process {@code pid}; empty when it does not exist (or {@code /proc} cannot tell). */
  public OptionalLong startTime(long pid) {
    String stat;
    try {
      stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return OptionalLong.empty();
    }
    String[] rest = stat.substring(close + 1).trim().split("\\s+");
    // rest[0] is field 3 (the state), so field 22 is rest[19].
    if (rest.length < 20) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(rest[19]));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** The start time of this JVM's process. */
  public long selfStart() {
    return startTime(ProcessHandle.current().pid()).orElse(0);
  }

  @Override
  public boolean alive(long pid, long start) {
    OptionalLong actual = startTime(pid);
    return actual.isPresent() && actual.getAsLong() == start;
  }

  /** The owner uid of a process, or -1 when it cannot be read. */
  public long uid(long pid) {
    try {
      Object uid = Files.getAttribute(proc.resolve(Long.toString(pid)), "unix:uid");
      return ((Number) uid).longValue();
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return -1;
    }
  }
}
