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
 * {@code stderr.log}, which people, reports and the Java API open, are hard links to the latest
 * attempt's files (the same file under a second name), pointed there once the attempt started (the
 * executor made the folder). A hard link takes no inode of its own: a symbolic link would be one
 * more file made per task, which on a busy file system costs more than the task's own start.
 */
final class AttemptLogs {

  private AttemptLogs() {}

  /** Points the task's {@code stdout.log} and {@code stderr.log} at {@code attempt}'s files. */
  static void showLatest(RunLayout layout, TaskSpec task, int attempt) {
    link(layout.stdout(task), layout.stdout(task, attempt));
    link(layout.stderr(task), layout.stderr(task, attempt));
  }

  /** Whether the file has no other name: not a link to an attempt's file, so a log of its own. */
  private static boolean onlyName(Path file) throws IOException {
    try {
      return ((Number) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue() == 1;
    } catch (UnsupportedOperationException | IllegalArgumentException e) {
      return false; // no link counts here: keep it where it is, the attempt's own files are what Berth reads
    }
  }

  /**
   * Best effort: a folder that cannot hold links (or cannot be written, which the launch will report
   * itself) leaves the attempt's own file, which is what Berth reads, as the one to open.
   */
  private static void link(Path shown, Path attemptFile) {
    try {
      // The usual case, a first attempt whose executor made its files: one link, no look first.
      Files.createLink(shown, attemptFile);
      return;
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // a name in the way, no attempt file yet, or no folder: the full way below
    }
    try {
      if (!Files.isDirectory(shown.getParent())) {
        return; // the executor keeps the attempt's files elsewhere (or made none)
      }
      if (Files.isRegularFile(shown, LinkOption.NOFOLLOW_LINKS) && onlyName(shown)) {
        // A log of a Berth that kept every attempt in one file: kept beside the new ones.
        Files.move(shown, shown.resolveSibling("earlier-attempts." + shown.getFileName()),
            StandardCopyOption.REPLACE_EXISTING);
      }
      if (!Files.exists(attemptFile)) {
        try {
          Files.createFile(attemptFile); // so the link is never dangling, even before the attempt writes
        } catch (java.nio.file.FileAlreadyExistsException e) {
          // the attempt made it meanwhile (a pool's engine opens its call's logs itself): link to that
        }
      }
      Files.deleteIfExists(shown);
      Files.createLink(shown, attemptFile);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      // see above
    }
  }
}
