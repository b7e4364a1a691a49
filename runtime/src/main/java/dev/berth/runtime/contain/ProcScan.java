package dev.berth.runtime.contain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One pass over Linux's {@code /proc}: the processes carrying a marker variable, with their resident
 * memory and CPU time. Clock ticks are taken as 100 a second, Linux's {@code USER_HZ} everywhere.
 */
final class ProcScan {

  /** A process seen in a scan. */
  record Seen(long pid, long parent, long rssBytes, long cpuTicks) {}

  static final Path PROC = Path.of("/proc");
  static final double TICKS_PER_SECOND = 100.0;
  private static final long PAGE_SIZE = 4096;
  private static final int PPID = 1;
  private static final int UTIME = 11;
  private static final int RSS_PAGES = 21;

  private ProcScan() {}

  /** Whether this machine has a {@code /proc} to scan. */
  static boolean usable() {
    return Files.isReadable(PROC.resolve("self/stat")) && Files.isReadable(PROC.resolve("self/environ"));
  }

  /** The live processes whose environment holds {@code entry} ({@code NAME=value}). */
  static List<Seen> marked(String entry) {
    return marked(List.of(entry), List.of());
  }

  /**
   * The live processes whose environment holds every entry of {@code all} and none of {@code none}
   * (each {@code NAME=value}).
   */
  static List<Seen> marked(List<String> all, List<String> none) {
    List<byte[]> wanted = all.stream().map(ProcScan::bytes).toList();
    List<byte[]> unwanted = none.stream().map(ProcScan::bytes).toList();
    List<Seen> found = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, ProcScan::isPidFolder)) {
      for (Path folder : entries) {
        byte[] env = environ(folder);
        if (wanted.stream().allMatch(w -> holds(env, w)) && unwanted.stream().noneMatch(u -> holds(env, u))) {
          stat(folder).ifPresent(found::add);
        }
      }
    } catch (IOException | RuntimeException e) {
      // a partial list still ends and measures what it found
    }
    return found;
  }

  private static byte[] bytes(String entry) {
    return (entry + "\0").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] environ(Path folder) {
    try {
      return Files.readAllBytes(folder.resolve("environ"));
    } catch (IOException | RuntimeException e) {
      return new byte[0]; // gone, or not ours to read
    }
  }

  /** The process's parent, memory and CPU time, if it is still there. */
  static Optional<Seen> stat(long pid) {
    return stat(PROC.resolve(Long.toString(pid)));
  }

  private static Optional<Seen> stat(Path folder) {
    try {
      String stat = Files.readString(folder.resolve("stat"));
      int end = stat.lastIndexOf(')'); // the command name may hold spaces and parentheses
      String[] f = stat.substring(end + 2).trim().split(" ");
      if (f.length <= RSS_PAGES || f[0].equals("Z")) {
        return Optional.empty();
      }
      long ticks = 0;
      for (int i = UTIME; i < UTIME + 4; i++) {
        ticks += Math.max(0, Long.parseLong(f[i]));
      }
      return Optional.of(new Seen(Long.parseLong(folder.getFileName().toString()), Long.parseLong(f[PPID]),
          Math.max(0, Long.parseLong(f[RSS_PAGES])) * PAGE_SIZE, ticks));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // it exited while we looked
    }
  }

  private static boolean holds(byte[] env, byte[] wanted) {
    outer:
    for (int start = 0; start + wanted.length <= env.length; start++) {
      if (start > 0 && env[start - 1] != 0) {
        continue;
      }
      for (int i = 0; i < wanted.length; i++) {
        if (env[start + i] != wanted[i]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static boolean isPidFolder(Path entry) {
    String name = entry.getFileName().toString();
    return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
