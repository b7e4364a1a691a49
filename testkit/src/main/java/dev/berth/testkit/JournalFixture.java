package dev.berth.testkit;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskId;
import dev.berth.spi.Journal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the {@link Journal} contracts share: a new journal of the implementation under test before each
 * test, a simulated crash and restart ({@link #reopen}), every journal opened closed after the test,
 * and the events the contracts write. {@link JournalContractTest} and {@link JournalReopenContractTest}
 * hold the contracts; each implementation extends both.
 */
public abstract class JournalFixture {

  /** The instant the test runs start at; with nanoseconds, so that implementations must keep them. */
  protected static final Instant T0 = Instant.parse("2024-05-01T10:00:00.123456789Z");
  /** The tasks the contracts write for, and the spec their runs start with. */
  protected static final TaskId A = TaskId.of("a");
  protected static final TaskId B = TaskId.of("b");
  protected static final String SPEC = "{\"name\":\"r\"}";

  private final List<Journal> opened = new ArrayList<>();
  /** The test's journal, new and empty when the test starts. */
  protected Journal journal;

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

  /** Keeps {@code j} to be closed after the test, and returns it. */
  protected final Journal track(Journal j) {
    opened.add(j);
    return j;
  }

  /** What {@code j} replays; it must hold a run. */
  protected static Journal.Replay replay(Journal j) throws Exception {
    return j.replay().orElseThrow();
  }

  /** Released, launched, failed and retried, relaunched on a GPU, succeeded: every field in use. */
  protected static List<TaskEvent> lifeOfA() {
    return List.of(
        released(0),
        launched(1, 1),
        new TaskEvent.Ended(T0.plusSeconds(2).plusNanos(1), Outcome.FAILED, 3, "exit code 3", TaskState.READY),
        new TaskEvent.Launched(T0.plusSeconds(3), 2, new Placement("cuda:0,cuda:1", 1L << 31, 1500, 5L << 30), 4321,
            false),
        new TaskEvent.Ended(T0.plusSeconds(4), Outcome.SUCCEEDED, 0, null, TaskState.SUCCEEDED));
  }

  /** Released {@code second} seconds after {@link #T0}. */
  protected static TaskEvent released(long second) {
    return new TaskEvent.Released(T0.plusSeconds(second));
  }

  /** Attempt {@code attempt} launched on the CPU {@code second} seconds after {@link #T0}. */
  protected static TaskEvent launched(long second, int attempt) {
    return new TaskEvent.Launched(T0.plusSeconds(second), attempt, Placement.cpu(1L << 30, 1000), 100 + attempt, false);
  }
}
