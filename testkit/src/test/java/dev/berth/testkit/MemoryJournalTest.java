package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MemoryJournalTest {

  private static final TaskId A = TaskId.of("a");
  private static final Instant T0 = Instant.parse("2024-05-01T10:00:00Z");

  private final MemoryJournal journal = new MemoryJournal();

  @Test
  void flushesCountOnlyFlushesThatWroteSomething() {
    journal.start("r", "{}", T0);
    journal.flush();
    journal.append(A, new TaskEvent.Released(T0));
    journal.append(A, new TaskEvent.Released(T0));
    journal.flush();
    journal.append(A, new TaskEvent.Released(T0));
    journal.finish(RunStatus.SUCCEEDED, T0);

    assertThat(journal.flushes()).isEqualTo(2);
  }

  @Test
  void pendingCountsTheBufferedWrites() {
    journal.start("r", "{}", T0);
    journal.append(A, new TaskEvent.Released(T0));
    journal.updateSpec("{}");

    assertThat(journal.pending()).isEqualTo(2);
    journal.flush();
    assertThat(journal.pending()).isZero();
  }

  @Test
  void theJournalLeftBehindByACrashCannotBeUsed() {
    journal.start("r", "{}", T0);
    journal.append(A, new TaskEvent.Released(T0));

    MemoryJournal after = journal.reopen();

    assertThatThrownBy(() -> journal.append(A, new TaskEvent.Released(T0))).isInstanceOf(IllegalStateException.class);
    assertThat(after.replay().orElseThrow().events()).isEmpty();
    assertThat(after.flushes()).isZero();
  }

  @Test
  void theReplayIsASnapshotThatLaterFlushesDoNotChange() {
    journal.start("r", "{}", T0);
    journal.append(A, new TaskEvent.Released(T0));
    journal.flush();
    var replay = journal.replay().orElseThrow();

    journal.append(A, new TaskEvent.Released(T0));
    journal.flush();

    assertThat(replay.events()).hasSize(1);
  }
}
