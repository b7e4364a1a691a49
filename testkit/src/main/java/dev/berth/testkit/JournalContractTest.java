package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.spi.Journal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every {@link Journal} must do, written once for the SQLite journal and {@link MemoryJournal}:
 * flushed writes replay in append order, buffered ones only after a flush, results and items are
 * kept by name, a growing spec replaces the stored one, the run's end is recorded, and after a crash (simulated by {@link #reopen}) exactly
 * what was flushed is there.
 */
public abstract class JournalContractTest {

  /** The instant the test runs start at; with nanoseconds, so that implementations must keep them. */
  protected static final Instant T0 = Instant.parse("2024-05-01T10:00:00.123456789Z");

  private static final TaskId A = TaskId.of("a");
  private static final TaskId B = TaskId.of("b");
  private static final String SPEC = "{\"name\":\"r\"}";

  private final List<Journal> opened = new ArrayList<>();
  private Journal journal;

  /** A new, empty journal; called once before each test. Closed after it. */
  protected abstract Journal newJournal() throws Exception;

  /**
   * Plays a crash and a restart: drops what {@code journal} buffered without flushing it (it may be
   * closed already, then nothing is buffered) and opens the same journal again, as a new process would.
   */
  protected abstract Journal reopen(Journal journal) throws Exception;

  @BeforeEach
  void createJournal() throws Exception {
    journal = track(newJournal());
  }

  @AfterEach
  void closeJournals() throws Exception {
    for (Journal j : opened) {
      try {
        j.close();
      } catch (IllegalStateException alreadyGone) {
        // a journal abandoned by a simulated crash
      }
    }
  }

  @Test
  void aJournalWithoutARunReplaysNothing() throws Exception {
    assertThat(journal.replay()).isEmpty();
  }

  @Test
  void startRecordsTheRunItsSpecWithItsHashAndTheStartTime() throws Exception {
    journal.start("r", SPEC, T0);

    Journal.RunInfo run = replay(journal).run();

    assertThat(run).isEqualTo(Journal.RunInfo.started("r", SPEC, T0));
    assertThat(run.specSha256()).isEqualTo(Journal.RunInfo.sha256(SPEC)).hasSize(64);
    assertThat(run.status()).isEmpty();
    assertThat(replay(track(reopen(journal))).run()).isEqualTo(run);
  }

  @Test
  void startingASecondRunIsRefused() throws Exception {
    journal.start("r", SPEC, T0);

    assertThatThrownBy(() -> journal.start("r", SPEC, T0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void writingBeforeTheRunStartedIsRefused() {
    assertThatThrownBy(() -> journal.append(A, released(0))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> journal.putItem(A, "x", "1")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> journal.finish(RunStatus.SUCCEEDED, T0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void flushedEventsReplayInAppendOrderNumberedFromOne() throws Exception {
    journal.start("r", SPEC, T0);
    List<TaskEvent> aEvents = lifeOfA();
    journal.append(A, aEvents.get(0));
    journal.append(B, released(1));
    for (TaskEvent e : aEvents.subList(1, aEvents.size())) {
      journal.append(A, e);
    }
    journal.flush();

    List<Journal.Entry> events = replay(journal).events();

    assertThat(events).extracting(Journal.Entry::seq).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(events).extracting(Journal.Entry::task).containsExactly(A, B, A, A, A, A);
    assertThat(events.stream().filter(e -> e.task().equals(A)).map(Journal.Entry::event)).containsExactlyElementsOf(aEvents);
    assertThat(events.get(1).event()).isEqualTo(released(1));
  }

  @Test
  void bufferedWritesAreNotReplayedUntilFlushed() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(0));
    journal.putResult(A, Map.of("acc", "0.9"));
    journal.putItem(A, "model", "\"m.pt\"");

    assertThat(replay(journal).events()).isEmpty();
    assertThat(replay(journal).results()).isEmpty();
    assertThat(replay(journal).items()).isEmpty();

    journal.flush();

    assertThat(replay(journal).events()).hasSize(1);
    assertThat(replay(journal).results()).containsOnlyKeys(A);
    assertThat(replay(journal).items()).containsOnlyKeys(A);
  }

  @Test
  void eachFlushContinuesTheNumberingAndAnEmptyFlushWritesNothing() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(0));
    journal.flush();
    journal.flush();
    journal.append(B, released(1));
    journal.append(B, launched(2, 1));
    journal.flush();

    assertThat(replay(journal).events()).extracting(Journal.Entry::seq).containsExactly(1L, 2L, 3L);
    assertThat(replay(journal).lastSeq()).isEqualTo(3);
  }

  @Test
  void aResultReplacesTheTasksEarlierResultAndItemsAreKeptByName() throws Exception {
    journal.start("r", SPEC, T0);
    journal.putResult(A, Map.of("acc", "0.5", "loss", "[1.5,0.9]"));
    journal.putItem(A, "weights", "\"a-1.pt\"");
    journal.putItem(A, "log", "{\"lines\":3}");
    journal.flush();
    journal.putResult(A, Map.of("acc", "0.75"));
    journal.putResult(B, Map.of("acc", "null"));
    journal.putItem(A, "weights", "\"a-2.pt\"");
    journal.flush();

    Journal.Replay replay = replay(journal);

    assertThat(replay.results()).isEqualTo(sorted(Map.of(A, sorted(Map.of("acc", "0.75")), B, sorted(Map.of("acc", "null")))));
    assertThat(replay.items()).isEqualTo(sorted(Map.of(A, sorted(Map.of("weights", "\"a-2.pt\"", "log", "{\"lines\":3}")))));
  }

  @Test
  void finishRecordsTheEndAndFlushesWhatWasBuffered() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(1));
    Instant end = T0.plusSeconds(60).plusNanos(7);

    journal.finish(RunStatus.FAILED, end);

    Journal.Replay replay = replay(track(reopen(journal)));
    assertThat(replay.run().status()).contains(RunStatus.FAILED);
    assertThat(replay.run().finishedAt()).contains(end);
    assertThat(replay.events()).hasSize(1);
  }

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
  void closeFlushesWhatIsBufferedAndAClosedJournalRefusesUse() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(0));

    journal.close();
    journal.close();

    assertThatThrownBy(() -> journal.append(A, released(1))).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(journal::flush).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(journal::replay).isInstanceOf(IllegalStateException.class);
    assertThat(replay(track(reopen(journal))).events()).hasSize(1);
  }

  @Test
  void aJournalReopenedAfterCloseHoldsEverythingAndContinuesTheNumbering() throws Exception {
    journal.start("r", SPEC, T0);
    List<TaskEvent> life = lifeOfA();
    life.subList(0, 2).forEach(e -> journal.append(A, e));
    journal.putItem(A, "k", "true");
    journal.close();

    Journal again = track(reopen(journal));
    life.subList(2, life.size()).forEach(e -> again.append(A, e));
    again.flush();

    Journal.Replay replay = replay(again);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactlyElementsOf(life);
    assertThat(replay.events()).extracting(Journal.Entry::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(replay.items().get(A)).containsEntry("k", "true");
    assertThatThrownBy(() -> again.start("r", SPEC, T0)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aCrashLosesExactlyWhatWasNotFlushed() throws Exception {
    journal.start("r", SPEC, T0);
    journal.append(A, released(0));
    journal.putItem(A, "kept", "1");
    journal.flush();
    journal.append(A, launched(1, 1));
    journal.putItem(A, "lost", "2");
    journal.putResult(A, Map.of("lost", "3"));

    Journal after = track(reopen(journal));

    Journal.Replay replay = replay(after);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactly(released(0));
    assertThat(replay.items().get(A)).containsOnlyKeys("kept");
    assertThat(replay.results()).isEmpty();
    after.append(A, launched(2, 1));
    after.flush();
    assertThat(replay(after).events()).extracting(Journal.Entry::seq).containsExactly(1L, 2L);
  }

  @Test
  void anUpdatedSpecReplacesTheStoredOneWithItsHashOnceFlushed() throws Exception {
    String grown = "{\"groups\":[\"g\"],\"name\":\"r\"}";
    journal.start("r", SPEC, T0);

    journal.updateSpec(grown);

    assertThat(replay(journal).run().specJson()).isEqualTo(SPEC);
    journal.flush();
    Journal.RunInfo run = replay(journal).run();
    assertThat(run.specJson()).isEqualTo(grown);
    assertThat(run.specSha256()).isEqualTo(Journal.RunInfo.sha256(grown));
    assertThat(run.name()).isEqualTo("r");
    assertThat(run.startedAt()).isEqualTo(T0);
    assertThat(replay(track(reopen(journal))).run()).isEqualTo(Journal.RunInfo.started("r", grown, T0));
  }

  @Test
  void theLastSpecUpdateOfAFlushWinsAndTravelsWithTheEventsOfThatFlush() throws Exception {
    String one = "{\"groups\":[1],\"name\":\"r\"}";
    String two = "{\"groups\":[1,2],\"name\":\"r\"}";
    journal.start("r", SPEC, T0);
    journal.updateSpec(one);
    journal.append(A, released(0));
    journal.updateSpec(two);
    journal.append(B, released(1));
    journal.flush();

    Journal.Replay replay = replay(journal);

    assertThat(replay.run().specJson()).isEqualTo(two);
    assertThat(replay.run().specSha256()).isEqualTo(Journal.RunInfo.sha256(two));
    assertThat(replay.events()).extracting(Journal.Entry::task).containsExactly(A, B);
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

  @Test
  void aFinishedRunKeepsItsLatestSpecAndItsEnd() throws Exception {
    String grown = "{\"groups\":[1],\"name\":\"r\"}";
    journal.start("r", SPEC, T0);
    journal.updateSpec(grown);

    journal.finish(RunStatus.SUCCEEDED, T0.plusSeconds(5));

    Journal.RunInfo run = replay(track(reopen(journal))).run();
    assertThat(run.specJson()).isEqualTo(grown);
    assertThat(run.status()).contains(RunStatus.SUCCEEDED);
    assertThat(run.finishedAt()).contains(T0.plusSeconds(5));
  }

  @Test
  void updatingTheSpecBeforeTheRunStartedOrAfterCloseIsRefused() throws Exception {
    assertThatThrownBy(() -> journal.updateSpec(SPEC)).isInstanceOf(IllegalStateException.class);
    journal.start("r", SPEC, T0);
    journal.close();
    assertThatThrownBy(() -> journal.updateSpec(SPEC)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void theReplayFoldsIntoTheRunStateWithTheCoresFold() throws Exception {
    RunSpec spec = TaskSpecs.run("r").group("g", TaskSpecs.task("a").build(), TaskSpecs.task("b").build()).build();
    journal.start("r", SPEC, T0);
    lifeOfA().forEach(e -> journal.append(A, e));
    journal.append(B, released(1));
    journal.flush();
    RunState state = new RunState(spec);

    replay(journal).applyTo(state);

    assertThat(state.task(A).state()).isEqualTo(TaskState.SUCCEEDED);
    assertThat(state.task(A).history().attemptCount()).isEqualTo(2);
    assertThat(state.task(B).state()).isEqualTo(TaskState.READY);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void anyMixOfWritesFlushesAndCrashesReplaysExactlyTheFlushedWrites(long seed) throws Exception {
    Random random = new Random(seed);
    journal.start("r", SPEC, T0);
    List<TaskEvent> expected = new ArrayList<>();
    List<TaskEvent> pending = new ArrayList<>();
    SortedMap<String, String> expectedItems = new TreeMap<>();
    SortedMap<String, String> pendingItems = new TreeMap<>();
    Journal j = journal;
    for (int step = 0; step < 300; step++) {
      int op = random.nextInt(10);
      if (op < 6) {
        TaskEvent e = randomEvent(random, step);
        j.append(A, e);
        pending.add(e);
      } else if (op == 6) {
        String name = "item" + random.nextInt(4);
        String value = Integer.toString(random.nextInt(100));
        j.putItem(A, name, value);
        pendingItems.put(name, value);
      } else if (op < 9) {
        j.flush();
        expected.addAll(pending);
        expectedItems.putAll(pendingItems);
        pending.clear();
        pendingItems.clear();
      } else {
        j = track(reopen(j));
        pending.clear();
        pendingItems.clear();
      }
    }

    Journal.Replay replay = replay(j);
    assertThat(replay.events()).extracting(Journal.Entry::event).containsExactlyElementsOf(expected);
    assertThat(replay.events()).extracting(Journal.Entry::seq)
        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, expected.size()).boxed().toList());
    assertThat(replay.items().getOrDefault(A, new TreeMap<>())).isEqualTo(expectedItems);
  }

  /** Keeps {@code j} to be closed after the test, and returns it. */
  protected final Journal track(Journal j) {
    opened.add(j);
    return j;
  }

  private static Journal.Replay replay(Journal j) throws Exception {
    return j.replay().orElseThrow();
  }

  /** Released, launched, failed and retried, relaunched on a GPU, succeeded: every field in use. */
  private static List<TaskEvent> lifeOfA() {
    return List.of(
        released(0),
        launched(1, 1),
        new TaskEvent.Ended(T0.plusSeconds(2).plusNanos(1), Outcome.FAILED, 3, "exit code 3", TaskState.READY),
        new TaskEvent.Launched(T0.plusSeconds(3), 2, new Placement("cuda:0,cuda:1", 1L << 31, 1500, 5L << 30), 4321,
            false),
        new TaskEvent.Ended(T0.plusSeconds(4), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
  }

  private static TaskEvent released(long second) {
    return new TaskEvent.Released(T0.plusSeconds(second));
  }

  private static TaskEvent launched(long second, int attempt) {
    return new TaskEvent.Launched(T0.plusSeconds(second), attempt, Placement.cpu(1L << 30, 1000), 100 + attempt, false);
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

  private static <K extends Comparable<K>, V> SortedMap<K, V> sorted(Map<K, V> map) {
    return new TreeMap<>(map);
  }
}
