package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every {@link Journal} keeps when its process stops and another opens it again, written once for
 * the SQLite journal and {@link MemoryJournal}: after a crash (simulated by {@link #reopen}) exactly
 * what was flushed is there, numbering goes on, a resumed or retried run may finish again, and an
 * interruption is no end to finish a run with.
 */
public abstract class JournalReopenContractTest extends JournalFixture {

  @Test
  void aResumedRunMayFinishAgainAndTheLastEndWins() throws Exception {
    journal.start("r", SPEC, T0);
    journal.finish(RunStatus.CANCELLED, T0.plusSeconds(1));
    Journal resumed = track(reopen(journal));
    resumed.append(A, released(2));

    resumed.finish(RunStatus.SUCCEEDED, T0.plusSeconds(9));

    Journal.RunInfo run = replay(resumed).run();
    assertThat(run.status()).contains(RunStatus.SUCCEEDED);
    assertThat(run.finishedAt()).contains(T0.plusSeconds(9));
  }

  @Test
  void aFinishedRunReopenedByARetryIsLiveAgainWithItsReopenedTasksInTheSameFlush() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(1));
    journal.finish(RunStatus.FAILED, T0.plusSeconds(5));
    Journal retried = track(reopen(journal));
    TaskEvent reopened = new TaskEvent.Reopened(T0.plusSeconds(9), "berth retry");
    retried.append(A, reopened);
    retried.reopenRun();

    assertThat(replay(retried).run().status()).as("nothing is reopened before the flush").contains(RunStatus.FAILED);
    retried.flush();

    Journal.Replay replay = replay(track(reopen(retried)));
    assertThat(replay.run().status()).isEmpty();
    assertThat(replay.run().finishedAt()).isEmpty();
    assertThat(replay.run().startedAt()).isEqualTo(T0);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactly(released(1), reopened);
  }

  @Test
  void aSweepsWholeHistoryAndItsLargeSpecReplayExactlyAfterAReopen() throws Exception {
    StringBuilder spec = new StringBuilder("{\"groups\":[");
    for (int i = 0; i < 20_000; i++) {
      spec.append(i == 0 ? "" : ",").append("{\"id\":\"t-").append(i).append("\"}");
    }
    String large = spec.append("],\"name\":\"r\"}").toString();
    journal.start("r", large, T0);
    List<Journal.Entry> written = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      TaskId task = TaskId.of("t-" + i);
      TaskEvent event = new TaskEvent.Released(T0.plusNanos(i));
      journal.append(task, event);
      written.add(new Journal.Entry(i + 1, task, event));
      if (i % 1_000 == 999) {
        journal.flush();
      }
    }

    Journal.Replay replay = replay(track(reopen(journal)));

    assertThat(replay.run().specJson()).isEqualTo(large);
    assertThat(replay.events()).isEqualTo(written);
  }

  @Test
  void anInterruptedRunIsNoEndToFinishWith() throws Exception {
    journal.start("r", SPEC, T0);

    assertThatThrownBy(() -> journal.finish(RunStatus.INTERRUPTED, T0.plusSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("interrupted");
    assertThat(replay(journal).run().status()).isEmpty();
  }

  @Test
  void aReopenedRunMayFinishAgain() throws Exception {
    journal.start("r", SPEC, T0);
    journal.finish(RunStatus.CANCELLED, T0.plusSeconds(1));
    journal.reopenRun();
    journal.finish(RunStatus.SUCCEEDED, T0.plusSeconds(9));

    Journal.RunInfo run = replay(track(reopen(journal))).run();
    assertThat(run.status()).contains(RunStatus.SUCCEEDED);
    assertThat(run.finishedAt()).contains(T0.plusSeconds(9));
  }

  @Test
  void aJournalReopenedAfterCloseHoldsEverythingAndContinuesTheNumbering() throws Exception {
    String grown = "{\"groups\":[1],\"name\":\"r\"}";
    journal.start("r", SPEC, T0);
    List<TaskEvent> life = lifeOfA();
    life.subList(0, 2).forEach(e -> journal.append(A, e));
    journal.updateSpec(grown);
    journal.close();

    Journal again = track(reopen(journal));
    life.subList(2, life.size()).forEach(e -> again.append(A, e));
    again.flush();

    Journal.Replay replay = replay(again);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactlyElementsOf(life);
    assertThat(replay.events()).extracting(Journal.Entry::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(replay.run().specJson()).isEqualTo(grown);
    assertThatThrownBy(() -> again.start("r", SPEC, T0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aCrashLosesExactlyWhatWasNotFlushed() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(0));
    journal.append(B, released(1));
    journal.flush();
    journal.append(A, launched(2, 1));
    journal.append(B, launched(3, 1));

    Journal after = track(reopen(journal));

    Journal.Replay replay = replay(after);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactly(released(0), released(1));
    after.append(A, launched(2, 1));
    after.flush();
    assertThat(replay(after).events()).extracting(Journal.Entry::seq).containsExactly(1L, 2L, 3L);
  }

  @Test
  void aSpecUpdateNotFlushedIsLostInACrashWithTheEventsBufferedBesideIt() throws Exception {
    String kept = "{\"groups\":[1],\"name\":\"r\"}";
    journal.start("r", SPEC, T0);
    journal.updateSpec(kept);
    journal.append(A, released(0));
    journal.flush();
    journal.updateSpec("{\"groups\":[1,2],\"name\":\"r\"}");
    journal.append(B, released(1));

    Journal after = track(reopen(journal));

    Journal.Replay replay = replay(after);
    assertThat(replay.run().specJson()).isEqualTo(kept);
    assertThat(replay.events()).extracting(Journal.Entry::task).containsExactly(A);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void anyMixOfWritesFlushesAndCrashesReplaysExactlyTheFlushedWrites(long seed) throws Exception {
    Random random = new Random(seed);
    journal.start("r", SPEC, T0);
    List<TaskEvent> expected = new ArrayList<>();
    List<TaskEvent> pending = new ArrayList<>();
    String expectedSpec = SPEC;
    String pendingSpec = null;
    Journal j = journal;
    for (int step = 0; step < 300; step++) {
      int op = random.nextInt(10);
      if (op < 6) {
        TaskEvent e = randomEvent(random, step);
        j.append(A, e);
        pending.add(e);
      } else if (op == 6) {
        pendingSpec = "{\"groups\":[" + random.nextInt(100) + "],\"name\":\"r\"}";
        j.updateSpec(pendingSpec);
      } else if (op < 9) {
        j.flush();
        expected.addAll(pending);
        expectedSpec = pendingSpec == null ? expectedSpec : pendingSpec;
        pending.clear();
        pendingSpec = null;
      } else {
        j = track(reopen(j));
        pending.clear();
        pendingSpec = null;
      }
    }

    Journal.Replay replay = replay(j);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactlyElementsOf(expected);
    assertThat(replay.events()).extracting(Journal.Entry::seq)
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, expected.size()).boxed().toList());
    assertThat(replay.run().specJson()).isEqualTo(expectedSpec);
  }

  private static TaskEvent randomEvent(Random random, int step) {
    Instant at = T0.plusSeconds(step).plusNanos(random.nextInt(1_000_000_000));
    return switch (random.nextInt(8)) {
      case 0 -> new TaskEvent.Released(at);
      case 7 -> new TaskEvent.Reopened(at, "retry " + step);
      case 4 -> new TaskEvent.Staged(at, TaskState.LOADED);
      case 5 -> new TaskEvent.Trained(at, 1 + random.nextInt(9), new Placement("cuda:1", 0, 0, 1L << 30));
      case 6 -> new TaskEvent.Reported(at, Outcome.GPU_OOM, "TRAIN", "out of memory " + step);
      case 1 -> new TaskEvent.Launched(at, 1 + random.nextInt(5), Placement.cpu(random.nextInt(1 << 20), 250),
          random.nextBoolean() ? -1 : random.nextInt(1 << 22), random.nextBoolean());
      case 2 -> new TaskEvent.Ended(at, Outcome.values()[random.nextInt(Outcome.values().length)],
          random.nextBoolean() ? null : random.nextInt(256), random.nextBoolean() ? null : "m" + step, TaskState.READY);
      default -> new TaskEvent.Settled(at, TaskState.CANCELLED, "why " + step);
    };
  }
}
