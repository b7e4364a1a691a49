package dev.berth.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * A small file beside a journal, {@code journal.db.committed}, holding the sequence number of the
 * last event a flush made durable. SQLite reads a write-ahead log only up to its first damaged frame
 * and ignores a missing one, so a journal whose log was cut short opens as an earlier, intact run;
 * comparing the journal's last event with this mark tells the two apart. The mark is written after
 * the commit, so it may lag behind the journal (after a crash between the two) but is never ahead
 * of an intact one.
 *
 * <p>A writer keeps the file open and overwrites it in place with one fixed-width write at offset 0
 * (a number of {@value #DIGITS} digits and a newline, within one disk sector and one page), which
 * readers see whole, old or new: one system call per commit, where a new file and a rename took four
 * and a change to the folder.
 */
final class CommitMark implements AutoCloseable {

  /** Digits of the largest sequence number, so every mark has the same length and covers any earlier one. */
  private static final int DIGITS = 19;

  private final Path file;
  private FileChannel channel;
  private boolean failed;

  private CommitMark(Path file) {
    this.file = file;
  }

  /** A writer of the mark of this journal file; the file is opened at the first {@link #write}. */
  static CommitMark writerFor(Path journal) {
    return new CommitMark(of(journal));
  }

  /** The mark of this journal file. */
  static Path of(Path journal) {
    return journal.resolveSibling(journal.getFileName() + ".committed");
  }

  /** Records {@code seq} as committed; best effort, since a mark that lags only weakens the check. */
  void write(long seq) {
    if (failed) {
      return;
    }
    ByteBuffer text = ByteBuffer.wrap(String.format("%0" + DIGITS + "d\n", seq).getBytes(StandardCharsets.US_ASCII));
    try {
      if (channel == null) {
        channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      }
      while (text.hasRemaining()) {
        channel.write(text, text.position());
      }
    } catch (IOException e) {
      failed = true; // the journal itself is written; only the check of its write-ahead log loses its steps
    }
  }

  /** Closes the file; a later {@link #write} does nothing. */
  @Override
  public void close() {
    failed = true;
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // nothing was lost: every write went to the file already
      }
    }
  }

  /** The sequence number recorded, or empty when there is no readable mark. */
  static OptionalLong read(Path journal) {
    try {
      return OptionalLong.of(Long.parseLong(Files.readString(of(journal), StandardCharsets.UTF_8).strip()));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /** Removes the mark of an earlier journal at the same place, before a new one takes it. */
  static void remove(Path journal) throws IOException {
    Files.deleteIfExists(of(journal));
  }
}
