package dev.berth.runtime.engine;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * A file per attempt holding its exit code, written the moment the exit is seen and before the
 * engine acts on it. A scheduler that is killed after a task exited but before the journal
 * recorded it finds the exit code here when the run resumes, so a task that succeeded is not run
 * again.
 */
final class ExitMarks {

  private ExitMarks() {}

  static Path file(Path taskDir, int attempt) {
    return taskDir.resolve(".berth-exit-" + attempt);
  }

  static void write(Path taskDir, int attempt, int exitCode) {
    try {
      Files.writeString(file(taskDir, attempt), Integer.toString(exitCode), StandardCharsets.UTF_8);
    } catch (IOException e) {
      // The journal still gets the exit through the engine; the mark only matters after a crash.
    }
  }

  static OptionalInt read(Path taskDir, int attempt) {
    try {
      return OptionalInt.of(Integer.parseInt(Files.readString(file(taskDir, attempt), StandardCharsets.UTF_8).strip()));
    } catch (IOException | NumberFormatException e) {
      return OptionalInt.empty();
    }
  }
}
