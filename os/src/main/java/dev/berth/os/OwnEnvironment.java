package dev.berth.os;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Blanks secrets in this process's environment as other processes see it. On Linux any process of
 * the same user, a task among them, reads a process's starting environment from
 * {@code /proc/PID/environ}, and a JVM cannot unset a variable. What that file shows is the memory
 * the environment was handed in, which the process may write through {@code /proc/self/mem}: the
 * values of the named variables are overwritten there with NUL bytes. The JVM's own copy, made when
 * it first read its environment, keeps them, so Berth still reads what it needs.
 *
 * <p>Where {@code /proc} is missing or that memory cannot be written, nothing changes and the
 * caller is told which variables stay readable.
 */
public final class OwnEnvironment {

  /** The environment area's bounds in {@code /proc/self/stat}: fields 50 and 51, Linux 3.5 and later. */
  private static final int ENV_START_FIELD = 50;

  /** More than a kernel hands a process (ARG_MAX is usually 2 MiB): a larger area is not the environment. */
  private static final long MAX_AREA = 64L << 20;

  private OwnEnvironment() {}

  /**
   * Overwrites the values of {@code names} in this process's starting environment, for those set.
   *
   * @return the variables that are set and still readable there: empty when all were blanked
   */
  public static Set<String> blank(Collection<String> names) {
    Set<String> set = new TreeSet<>();
    for (String name : names) {
      if (System.getenv(name) != null) { // also makes the JVM's copy before the memory it copies changes
        set.add(name);
      }
    }
    if (set.isEmpty()) {
      return set;
    }
    try {
      long[] area = area();
      if (area == null) {
        return set;
      }
      try (RandomAccessFile mem = new RandomAccessFile("/proc/self/mem", "rw")) {
        byte[] env = new byte[(int) (area[1] - area[0])];
        mem.seek(area[0]);
        mem.readFully(env);
        blankValues(env, area[0], set, mem);
      }
      return stillThere(set);
    } catch (IOException | RuntimeException e) {
      return set; // /proc is not Linux's, or this memory is not ours to write: the caller says what stays
    }
  }

  /** Writes NULs over each named entry's value, in place, one entry at a time. */
  private static void blankValues(byte[] env, long base, Set<String> names, RandomAccessFile mem) throws IOException {
    int start = 0;
    while (start < env.length) {
      int end = start;
      while (end < env.length && env[end] != 0) {
        end++;
      }
      int eq = start;
      while (eq < end && env[eq] != '=') {
        eq++;
      }
      if (eq < end && names.contains(new String(env, start, eq - start, StandardCharsets.UTF_8)) && end > eq + 1) {
        mem.seek(base + eq + 1);
        mem.write(new byte[end - eq - 1]);
      }
      start = end + 1;
    }
  }

  /** The bounds of the environment area, or null when this kernel does not say them. */
  private static long[] area() throws IOException {
    Path stat = Path.of("/proc/self/stat");
    if (!Files.isReadable(stat)) {
      return null;
    }
    String text = Files.readString(stat, StandardCharsets.ISO_8859_1);
    // the command name (field 2) is in parentheses and may hold spaces: count from after it
    String[] fields = text.substring(text.lastIndexOf(')') + 2).trim().split(" ");
    int at = ENV_START_FIELD - 3;
    if (fields.length <= at + 1) {
      return null;
    }
    long start = Long.parseLong(fields[at]);
    long end = Long.parseLong(fields[at + 1]);
    return start > 0 && end > start && end - start <= MAX_AREA ? new long[] {start, end} : null;
  }

  /** The names whose values {@code /proc/self/environ} still shows. */
  private static Set<String> stillThere(Set<String> names) throws IOException {
    Set<String> left = new TreeSet<>();
    for (String entry : new String(Files.readAllBytes(Path.of("/proc/self/environ")), StandardCharsets.UTF_8)
        .split("\0")) {
      int eq = entry.indexOf('=');
      if (eq > 0 && eq < entry.length() - 1 && names.contains(entry.substring(0, eq))) {
        left.add(entry.substring(0, eq));
      }
    }
    return left;
  }
}
