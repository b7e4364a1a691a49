package dev.berth.cli;

import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Optional;

/**
 * The machine's file system refusing Berth something (a read-only or full disk, a workdir that is a
 * file, a folder that cannot be created): one line naming the path and the cause, instead of a stack
 * trace. The command then exits with {@link ExitCodes#INTERNAL}; the journal keeps what was recorded.
 */
final class FileTrouble {

  private FileTrouble() {}

  /** The line for {@code failure} when a file-system error caused it; empty for anything else (a bug). */
  static Optional<String> describe(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof JournalException j) {
        return Optional.of(j.getMessage()); // already one line naming the journal, e.g. "...: the disk is full"
      }
      if (t instanceof FileSystemException fs) {
        String path = fs.getFile() == null ? "" : fs.getFile() + ": ";
        String other = fs.getOtherFile() == null ? "" : " (and " + fs.getOtherFile() + ")";
        return Optional.of(path + cause(fs) + other);
      }
      if (t instanceof IOException io && !(t.getCause() instanceof IOException)) {
        return Optional.of(oneLine(io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage()));
      }
    }
    return Optional.empty();
  }

  private static String cause(FileSystemException e) {
    if (e.getReason() != null && !e.getReason().isBlank()) {
      return oneLine(e.getReason()); // the system's words: "Read-only file system", "No space left on device"
    }
    if (e instanceof FileAlreadyExistsException) {
      return "exists already, and is not a folder Berth can use";
    }
    if (e instanceof NoSuchFileException) {
      return "does not exist and cannot be created there";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "is not a folder";
    }
    return e.getClass().getSimpleName();
  }

  private static String oneLine(String text) {
    return text.strip().replace('\n', ' ').replace('\r', ' ');
  }
}
