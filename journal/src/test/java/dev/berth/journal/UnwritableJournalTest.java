package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal file made immutable ({@code chattr +i}, which binds root too) under SQLite: its shared
 * memory is mapped, and a write to a mapped page of an immutable file kills the process with SIGBUS,
 * so the journal must find out before SQLite touches it. Runs where {@code chattr} works (root on
 * ext4 and the like), skipped elsewhere.
 */
class UnwritableJournalTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final TaskId A = TaskId.of("a");

  @TempDir Path dir;
  private final List<Path> immutable = new ArrayList<>();

  @AfterEach
  void letTheFolderBeRemoved() throws Exception {
    for (Path p : immutable) {
      chattr("-i", p);
    }
  }

  @Test
  void aRunWhoseSharedMemoryBecomesImmutableStopsWithALineNamingItInsteadOfDying() throws Exception {
    Path db = dir.resolve("journal.db");
    Path shm = dir.resolve("journal.db-shm");
    try (SqliteJournal journal = SqliteJournal.create(db)) {
      journal.start("r", "{}", T0);
      journal.append(A, new TaskEvent.Released(T0));
      journal.flush();
      makeImmutable(shm);
      new ProcessBuilder("sync").start().waitFor(); // written back, SQLite's next write to the page faults

      journal.append(A, new TaskEvent.Released(T0.plusSeconds(1)));
      assertThatThrownBy(journal::flush).isInstanceOf(JournalException.class)
          .hasMessage(shm + ": cannot be written (read-only, immutable or another user's), so the journal cannot"
              + " go on; make it writable again, then resume the run");
      chattr("-i", shm);
    }
  }

  @Test
  void aJournalWhoseSharedMemoryBecameImmutableClosesWithoutDying() throws Exception {
    Path db = dir.resolve("journal.db");
    Path shm = dir.resolve("journal.db-shm");
    SqliteJournal journal = SqliteJournal.create(db);
    journal.start("r", "{}", T0);
    journal.append(A, new TaskEvent.Released(T0));
    journal.flush();
    makeImmutable(shm);
    new ProcessBuilder("sync").start().waitFor();
    journal.append(A, new TaskEvent.Released(T0.plusSeconds(1)));

    // Closing SQLite's connection checkpoints, which writes the mapped file: SIGBUS took this JVM with it.
    assertThatThrownBy(journal::close).isInstanceOf(JournalException.class).hasMessageStartingWith(shm.toString());
    chattr("-i", shm);
    try (SqliteJournal again = SqliteJournal.open(db)) {
      assertThat(again.replay()).hasValueSatisfying(r -> assertThat(r.events()).hasSize(1));
    }
  }

  @Test
  void aJournalWithAnImmutableFileIsRefusedBeforeSqliteMapsIt() throws Exception {
    Path db = dir.resolve("journal.db");
    Path shm = dir.resolve("journal.db-shm");
    try (SqliteJournal live = SqliteJournal.create(db)) { // keeps the log and shared memory, as a killed run does
      live.start("r", "{}", T0);
      live.append(A, new TaskEvent.Released(T0));
      live.flush();
      makeImmutable(shm);

      assertThatThrownBy(() -> SqliteJournal.open(db)).isInstanceOf(JournalException.class)
          .hasMessageStartingWith(shm + ": cannot be written");
      assertThatThrownBy(() -> JournalReader.open(db)).isInstanceOf(JournalException.class)
          .hasMessageStartingWith(shm + ": cannot be written");
      chattr("-i", shm);
    }
  }

  private void makeImmutable(Path file) throws Exception {
    assertThat(file).exists();
    assumeTrue(chattr("+i", file), "chattr +i does not work here");
    immutable.add(file);
  }

  private static boolean chattr(String flag, Path file) throws IOException, InterruptedException {
    try {
      Process p = new ProcessBuilder("chattr", flag, file.toString()).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0 && (!flag.equals("+i") || !Files.isWritable(file));
    } catch (IOException e) {
      return false; // no chattr
    }
  }
}
