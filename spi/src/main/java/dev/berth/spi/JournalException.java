package dev.berth.spi;

import java.nio.file.Path;

/**
 * A journal could not be opened, read or written. The message is one line that names the file and
 * the problem, e.g. {@code "runs/a/.berth/journal.db: not a Berth journal (no Berth schema)"}.
 */
public final class JournalException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final boolean missesCommits;
  private final boolean unwritable;

  /** The problem with {@code file}. */
  public JournalException(Path file, String problem) {
    this(file, problem, null);
  }

  /** The problem with {@code file}, caused by {@code cause}. */
  public JournalException(Path file, String problem, Throwable cause) {
    this(file, problem, cause, false, false);
  }

  private JournalException(Path file, String problem, Throwable cause, boolean missesCommits, boolean unwritable) {
    super(oneLine(file + ": " + problem), cause);
    this.file = file;
    this.missesCommits = missesCommits;
    this.unwritable = unwritable;
  }

  /**
   * A journal that reads as intact but ends before what was committed to it (a write-ahead log cut
   * short or lost): resuming from it would do finished work again, so only restoring its files or
   * starting over helps.
   */
  public static JournalException missingCommits(Path file, String problem) {
    return new JournalException(file, problem, null, true, false);
  }

  /**
   * One of the journal's files cannot be written (read-only, immutable, another user's): the machine
   * refuses Berth what it needs, rather than the journal being wrong, so making it writable again helps.
   */
  public static JournalException unwritable(Path file, String problem) {
    return new JournalException(file, problem, null, false, true);
  }

  /** Whether one of the journal's files cannot be written; see {@link #unwritable}. */
  public boolean unwritable() {
    return unwritable;
  }

  /** Whether the journal ends before what was committed to it; see {@link #missingCommits}. */
  public boolean missesCommits() {
    return missesCommits;
  }

  /** The journal file. */
  public Path file() {
    return file;
  }

  private static String oneLine(String text) {
    return text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }
}
