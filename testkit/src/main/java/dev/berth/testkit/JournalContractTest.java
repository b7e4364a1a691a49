package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.RunSpec;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.spi.Journal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Journal} must do while one process writes it, written once for the SQLite journal
 * and {@link MemoryJournal}: flushed writes replay in append order, buffered ones only after a flush,
 * a growing spec replaces the stored one, and the run's end is recorded. What a journal keeps across a crash, a resume or a retry is {@link JournalReopenContractTest}'s.
 */
public abstract class JournalContractTest extends JournalFixture {

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
    journal.append(B, released(1));

    assertThat(replay(journal).events()).isEmpty();

    journal.flush();

    assertThat(replay(journal).events()).hasSize(2);
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
}
