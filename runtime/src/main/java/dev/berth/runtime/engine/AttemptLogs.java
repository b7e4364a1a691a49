package dev.berth.runtime.engine;

import dev.berth.core.model.TaskSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Each attempt writes its own {@code attempt-N.stdout.log} and {@code attempt-N.stderr.log}, so what
 * one attempt printed is never read as another's (an earlier attempt's {@code MemoryError} must not
 * make a later plain failure look like an out-of-memory death). The task's {@code stdout.log} and
 * {@code stderr.log}, which people, reports and the Java API open, are relative links to the latest
 * attempt's files, pointed there once the attempt started (the executor made the folder).
 */
final class AttemptLogs {

  private AttemptLogs() {}

  /** Points the task's {@code stdout.log} and {@code stderr.log} at {@code attempt}'s files. */
  static void showLatest(RunLayout layout, TaskSpec task, int attempt) {
    link(layout.stdout(task), layout.stdout(task, attempt));
    link(layout.stderr(task), layout.stderr(task, attempt));
  }

  /**
   * Best effort: a folder that cannot hold links (or cannot be written, which the launch will report
   * itself) leaves the attempt's own file, which is what Berth reads, as the one to open.
   */
  private static void link(Path shown, Path attemptFile) {
    try {
      if (!Files.isDirectory(shown.getParent())) {
        return; // the executor keeps the attempt's files elsewhere (or made none)
      }
      if (Files.isRegularFile(shown, LinkOption.NOFOLLOW_LINKS)) {
        // A log of a Berth that kept every attempt in one file: kept beside the new ones.
        Files.move(shown, shown.resolveSibling("earlier-attempts." + shown.getFileName()),
            StandardCopyOption.REPLACE_EXISTING);
      }
      if (!Files.exists(attemptFile)) {
        Files.createFile(attemptFile); // so the link is never dangling, even before the attempt writes
      }
      Files.deleteIfExists(shown);
      Files.createSymbolicLink(shown, attemptFile.getFileName());
    } catch (IOException | UnsupportedOperationException e) {
      // see above
    }
  }
}
