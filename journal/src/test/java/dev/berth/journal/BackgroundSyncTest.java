package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush that only needs to survive the process returns once SQLite committed, and tells when it is
 * durable from the journal's sync thread: in the order of the flushes, each after the commit mark
 * covers it. A durable flush is synced and marked before it returns.
 */
class BackgroundSyncTest {

  private static final TaskId A = TaskId.of("a");
  private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

  @TempDir Path dir;

  @Test
  void aDurableFlushIsMarkedBeforeItReturns() throws Exception {
    Path db = dir.resolve("journal.db");
    try (SqliteJournal journal = SqliteJournal.create(db)) {
      journal.start("r", "{}", T0);
      journal.append(A, new TaskEvent.Released(T0));
      journal.append(A, new TaskEvent.Released(T0.plusSeconds(1)));
      journal.flush();
      assertThat(CommitMark.read(db)).hasValue(2);
    }
  }

  @Test
  void backgroundFlushesTellWhenDurableInTheirOrderFromTheSyncThread() throws Exception {
    Path db = dir.resolve("journal.db");
    List<String> told = new ArrayList<>();
    List<OptionalLong> marks = new ArrayList<>();
    CountDownLatch both = new CountDownLatch(2);
    try (SqliteJournal journal = SqliteJournal.create(db)) {
      journal.start("r", "{}", T0);
      journal.append(A, new TaskEvent.Released(T0));
      journal.flush(() -> {
        synchronized (told) {
          told.add("first on " + Thread.currentThread().getName());
          marks.add(CommitMark.read(db));
        }
        both.countDown();
      });
      journal.append(A, new TaskEvent.Released(T0.plusSeconds(1)));
      journal.flush(() -> {
        synchronized (told) {
          told.add("second on " + Thread.currentThread().getName());
          marks.add(CommitMark.read(db));
        }
        both.countDown();
      });
      assertThat(both.await(60, TimeUnit.SECONDS)).isTrue();
    }
    synchronized (told) {
      assertThat(told).containsExactly("first on berth-journal-sync", "second on berth-journal-sync");
      assertThat(marks.get(0).getAsLong()).as("the mark covers the first flush when it is told").isGreaterThanOrEqualTo(1);
      assertThat(marks.get(1)).hasValue(2);
    }
  }

  @Test
  void closingTellsEveryFlushStillWaitingForItsSync() throws Exception {
    Path db = dir.resolve("journal.db");
    List<Integer> told = new ArrayList<>();
    try (SqliteJournal journal = SqliteJournal.create(db)) {
      journal.start("r", "{}", T0);
      for (int i = 0; i < 20; i++) {
        journal.append(A, new TaskEvent.Released(T0.plusSeconds(i)));
        int n = i;
        journal.flush(() -> {
          synchronized (told) {
            told.add(n);
          }
        });
      }
    }
    synchronized (told) {
      assertThat(told).hasSize(20).isSorted();
    }
    assertThat(CommitMark.read(db)).hasValue(20);
  }
}
