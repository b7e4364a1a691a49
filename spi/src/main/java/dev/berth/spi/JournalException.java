package dev.berth.spi;

import java.nio.file.Path;

/**
 * A journal could not be opened, read or written. The message is one line that names the file and
 * the problem, e.g. {@code "runs/a/.berth/journal.db: not a Berth journal (no Berth schema)"}.
 */
public final class JournalException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /** The problem with {@code file}. */
  public JournalException(Path file, String problem) {
    this(file, problem, null);
  }

  /** The problem with {@code file}, caused by {@code cause}. */
  public JournalException(Path file, String problem, Throwable cause) {
    super(oneLine(file + ": " + problem), cause);
    this.file = file;
  }

  /** The journal file. */
  public Path file() {
    return file;
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }
}
