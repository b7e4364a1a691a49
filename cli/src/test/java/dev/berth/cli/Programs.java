package dev.berth.cli;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the programs a test needs besides Java are installed, so that it can skip cleanly without them. */
final class Programs {

  private Programs() {}

  /** Whether an executable of this name is in a folder of the PATH. */
  static boolean onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return false;
    }
    for (String entry : path.split(File.pathSeparator)) {
      if (!entry.isEmpty() && Files.isExecutable(Path.of(entry, program))) {
        return true;
      }
    }
    return false;
  }
}
