package dev.berth.protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The resident memory of the calling process, as Berth and the task worker both report it: Linux's
 * {@code VmRSS} from {@code /proc/self/status}.
 */
public final class SelfMemory {

  private SelfMemory() {}

  /** This process's resident memory in bytes, or 0 where it cannot be read (not Linux). */
  public static long residentBytes() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux: no figure
    }
    return 0;
  }
}
