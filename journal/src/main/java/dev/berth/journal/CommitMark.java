package dev.berth.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.OptionalLong;

/**
 * A small file beside a journal, {@code journal.db.committed}, holding the sequence number of the
 * last event a flush made durable. SQLite reads a write-ahead log only up to its first damaged frame
 * and ignores a missing one, so a journal whose log was cut short opens as an earlier, intact run;
 * comparing the journal's last event with this mark tells the two apart. The mark is written after
 * the commit, so it may lag behind the journal (after a crash between the two) but is never ahead
 * of an intact one.
 */
final class CommitMark {

  private CommitMark() {}

  /** The mark of this journal file. */
  static Path of(Path journal) {
    return journal.resolveSibling(journal.getFileName() + ".committed");
  }

  /** Records {@code seq} as committed; best effort, since a mark that lags only weakens the check. */
  static void write(Path journal, long seq) {
    Path mark = of(journal);
    Path next = mark.resolveSibling(mark.getFileName() + ".new");
    try {
      Files.writeString(next, seq + "\n", StandardCharsets.UTF_8);
      Files.move(next, mark, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // the journal itself is written; only the check of its write-ahead log loses a step
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
