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
    Stat stat = stat(pid);
    return stat == null ? OptionalLong.empty() : OptionalLong.of(stat.start());
  }

  /** A process's state letter (field 3, e.g. {@code S}, {@code Z}), its kernel flags (field 9) and start time. */
  record Stat(char state, long flags, long start) {

    /** The kernel's {@code PF_KTHREAD} flag. */
    private static final long KERNEL_THREAD = 0x00200000;

    /** Whether it is a kernel thread: owned by root, its environment unreadable, and never a task. */
    boolean kernelThread() {
      return (flags & KERNEL_THREAD) != 0;
    }

    /**
     * Whether it has not exited: a zombie ({@code Z}: exited, not yet reaped by its parent) or a
     * dying process ({@code X}) runs nothing and holds no memory, though its pid stays taken.
     */
    boolean running() {
      return state != 'Z' && state != 'X';
    }
  }

  /** What {@code /proc/PID/stat} says of the process; null when it does not exist or cannot be read. */
  Stat stat(long pid) {
    String stat;
    try {
      stat = Files.readString(proc.resolve(Long.toString(pid)).resolve("stat"));
    } catch (IOException e) {
      return null;
    }
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    int close = stat.lastIndexOf(')');
    if (close < 0) {
      return null;
    }
    String[] rest = stat.substring(close + 1).trim().split("\\s+");
    // rest[0] is field 3 (the state), so field 9 is rest[6] and field 22 is rest[19].
    if (rest.length < 20 || rest[0].isEmpty()) {
      return null;
    }
    try {
      return new Stat(rest[0].charAt(0), Long.parseLong(rest[6]), Long.parseLong(rest[19]));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The start time of this JVM's process. */
  public long selfStart() {
    return startTime(ProcessHandle.current().pid()).orElse(0);
  }

  /** {@inheritDoc} A zombie is dead ({@link Stat#running}). */
  @Override
  public boolean alive(long pid, long start) {
    Stat stat = stat(pid);
    return stat != null && stat.start() == start && stat.running();
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
