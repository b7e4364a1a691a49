package dev.berth.host;

import dev.berth.spi.SharedReservations;
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
 * {@code BERTH_RUN_DIR} in its environment. Only root and the process's own user may read that
 * environment; a process of the run's user whose environment this looker cannot read, that started
 * after that run's Berth and has not exited, may be one of its tasks, and counts as one: holding
 * more rather than less.
 */
final class ProcTasks implements TaskProcesses {

  private static final String VARIABLE = "BERTH_RUN_DIR=";

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
  public boolean anyAlive(String runDir, long uid, long berthStart) {
    byte[] wanted = (VARIABLE + runDir).getBytes(StandardCharsets.UTF_8);
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, ProcTasks::isPid)) {
      for (Path p : processes) {
        if (isTaskOf(p, wanted, uid, berthStart)) {
          return true;
        }
      }
    } catch (IOException e) {
      return true; // cannot tell: keep what the run held
    }
    return false;
  }

  @Override
  public Set<String> runFolders(String ledger) {
    Set<String> folders = new TreeSet<>();
    try (DirectoryStream<Path> processes = Files.newDirectoryStream(proc, ProcTasks::isPid)) {
      for (Path p : processes) {
        ProcStat.Stat s = stat.stat(Long.parseLong(p.getFileName().toString()));
        if (s == null || !s.running() || s.kernelThread()) {
          continue;
        }
        try {
          runFolder(Files.readAllBytes(p.resolve("environ")), ledger).ifPresent(folders::add);
        } catch (IOException | SecurityException goneOrUnreadable) {
          // another user's process, or gone: nothing this looker can tell
        }
      }
    } catch (IOException e) {
      // cannot list the processes: none to tell
    }
    return folders;
  }

  /** The NUL-separated environment's {@code BERTH_RUN_DIR}, when it has one and names {@code ledger} as its host's. */
  private static Optional<String> runFolder(byte[] environment, String ledger) {
    Optional<String> folder = Optional.empty();
    boolean inLedger = false;
    for (String entry : new String(environment, StandardCharsets.UTF_8).split("\0")) {
      if (entry.startsWith(VARIABLE)) {
        folder = Optional.of(entry.substring(VARIABLE.length()));
      }
      inLedger |= entry.equals(SharedReservations.LEDGER_VARIABLE + "=" + ledger);
    }
    return inLedger ? folder : Optional.empty();
  }

  private boolean isTaskOf(Path process, byte[] wanted, long uid, long berthStart) {
    long pid = Long.parseLong(process.getFileName().toString());
    ProcStat.Stat s = stat.stat(pid);
    // A kernel thread's environment cannot be read either, by root too, and new ones start all the time.
    if (s == null || !s.running() || s.kernelThread() || s.start() < berthStart) {
      return false;
    }
    byte[] environment;
    try {
      environment = Files.readAllBytes(process.resolve("environ"));
    } catch (NoSuchFileException gone) {
      return false;
    } catch (IOException | SecurityException unreadable) {
      return stat.uid(pid) == uid;
    }
    return holds(environment, wanted);
  }

  /** Whether the NUL-separated environment has the entry {@code wanted} whole. */
  private static boolean holds(byte[] environment, byte[] wanted) {
    int from = 0;
    while (from < environment.length) {
      int end = from;
      while (end < environment.length && environment[end] != 0) {
        end++;
      }
      if (end - from == wanted.length && Arrays.equals(environment, from, end, wanted, 0, wanted.length)) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  private static boolean isPid(Path p) {
    String name = p.getFileName().toString();
    return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
  }
}
