package dev.berth.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds a run's task processes in {@code /proc}: every process Berth starts for a task, and every
 * child it leaves (a background job, a {@code setsid} double fork), carries the task's
 * {@code BERTH_RUN_DIR} and {@code BERTH_TASK_ID} in its environment. Only root and the process's own
 * user may read that environment; a process of the run's user whose environment this looker cannot
 * read, that started after the run's first task could and has not exited, may be any of its tasks,
 * and counts as {@link #UNKNOWN}: holding more rather than less. So does a warm pool's engine, which
 * serves many tasks.
 */
final class ProcTasks implements TaskProcesses {

  private static final String VARIABLE = "BERTH_RUN_DIR=";
  private static final byte[] TASK = "BERTH_TASK_ID=".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ENGINE = "BERTH_ENGINE=".getBytes(StandardCharsets.UTF_8);

  private final Path proc;
  private final ProcStat stat;

  /** Reads the system's {@code /proc}. */
  ProcTasks() {
    this(Path.of("/proc"));
  }

  ProcTasks(Path proc) {
    this.proc = proc;
    this.stat = new ProcStat(proc);
  }

  @Override
  public Set<String> liveTasks(String runDir, long uid, long berthStart) {
    byte[] wanted = (VARIABLE + runDir).getBytes(StandardCharsets.UTF_8);
    Set<String> live = new TreeSet<>();
    boolean listed = eachProcess((pid, s, environment) -> {
      taskOf(pid, s, environment, wanted, uid, berthStart).ifPresent(live::add);
      return !live.contains(UNKNOWN); // the run keeps all it holds: no need to look further
    });
    return listed ? live : Set.of(UNKNOWN); // cannot tell: keep what the run held
  }

  /** Looks at one live process; false to look no further. */
  private interface Visit {
    boolean visit(long pid, ProcStat.Stat stat, byte[] environment);
  }

  /**
   * Shows every live process but kernel threads to {@code visit}, with its environment, or null when
   * this looker may not read it (a kernel thread's cannot be read either, by root too, and new ones
   * start all the time).
   *
   * @return false when the processes cannot be listed
   */
  private boolean eachProcess(Visit visit) {
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, ProcTasks::isPid)) {
      for (Path p : processes) {
        long pid = Long.parseLong(p.getFileName().toString());
        ProcStat.Stat s = stat.stat(pid);
        if (s == null || !s.running() || s.kernelThread()) {
          continue;
        }
        byte[] environment;
        try {
          environment = Files.readAllBytes(p.resolve("environ"));
        } catch (NoSuchFileException gone) {
          continue;
        } catch (IOException | SecurityException unreadable) {
          environment = null;
        }
        if (!visit.visit(pid, s, environment)) {
          break;
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The task the process belongs to, {@link #UNKNOWN} when it may be any, empty when it is none of the
   * run's; {@code environment} is null when it cannot be read.
   */
  private Optional<String> taskOf(long pid, ProcStat.Stat s, byte[] environment, byte[] wanted, long uid,
      long berthStart) {
    if (environment == null) {
      // Only its start tells: one that started before the run's tasks could is none of them. One
      // whose environment names the run's folder is the run's, whenever it started: a task a
      // resume adopted started before that resume's Berth, and a ledger made anew may not know
      // the run that started it.
      return stat.uid(pid) == uid && s.start() >= berthStart ? Optional.of(UNKNOWN) : Optional.empty();
    }
    if (!holds(environment, wanted)) {
      return Optional.empty();
    }
    Optional<String> task = valueOf(environment, TASK);
    return task.isEmpty() || valueOf(environment, ENGINE).isPresent() ? Optional.of(UNKNOWN) : task;
  }

  /** Whether the NUL-separated environment has the entry {@code wanted} whole. */
  private static boolean holds(byte[] environment, byte[] wanted) {
    int from = 0;
    while (from < environment.length) {
      int end = entryEnd(environment, from);
      if (end - from == wanted.length && Arrays.equals(environment, from, end, wanted, 0, wanted.length)) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  /** The value of the NUL-separated environment's entry that starts with {@code name} ({@code NAME=}). */
  private static Optional<String> valueOf(byte[] environment, byte[] name) {
    int from = 0;
    while (from < environment.length) {
      int end = entryEnd(environment, from);
      if (end - from >= name.length && Arrays.equals(environment, from, from + name.length, name, 0, name.length)) {
        return Optional.of(new String(environment, from + name.length, end - from - name.length,
            StandardCharsets.UTF_8));
      }
      from = end + 1;
    }
    return Optional.empty();
  }

  private static int entryEnd(byte[] environment, int from) {
    int end = from;
    while (end < environment.length && environment[end] != 0) {
      end++;
    }
    return end;
  }

  private static boolean isPid(Path p) {
    String name = p.getFileName().toString();
    return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
  }
}
