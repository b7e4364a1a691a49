package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Records what happens to tasks: each event is applied to the run state and appended to the journal
 * at once, and shown to the listener only after {@link #commit} made it durable. One commit per
 * engine step is the group commit. Loop thread only.
 */
final class EventRecorder {

  private static final int MAX_STEPS_PER_COMMIT = 32;

  private final RunState state;
  private final RunListener listener;
  private final List<Runnable> unannounced = new ArrayList<>();
  private Journal journal = Journals.NONE;
  private Function<RunSpec, String> specEncoder;
  private boolean specGrew;
  private int steps;

  EventRecorder(RunState state, RunListener listener) {
    this.state = state;
    this.listener = listener;
  }

  /** Records into this journal from now on. */
  void journal(Journal j) {
    this.journal = j;
  }

  /** Journals the spec, encoded so, whenever it grew since the last commit. */
  void encodeSpecWith(Function<RunSpec, String> encoder) {
    this.specEncoder = encoder;
  }

  /** Applies the event, journals it, and shows it after the next commit. */
  void record(TaskId id, TaskEvent event) {
    state.apply(id, event);
    journal.append(id, event);
    TaskRecord r = state.task(id);
    unannounced.add(() -> listener.taskEvent(r, event));
  }

  /** Tells the listener something after the next commit. */
  void announce(Runnable tell) {
    unannounced.add(tell);
  }

  /** The spec grew (a group was added): the next commit journals it before the group's first event is shown. */
  void specGrew() {
    specGrew = true;
  }

  /**
   * Makes what was recorded durable, then tells the listener: nothing is shown before it is in the
   * journal.
   */
  void commit() {
    try {
      if (specGrew && specEncoder != null) {
        journal.updateSpec(specEncoder.apply(state.spec()));
      }
      specGrew = false;
      journal.flush();
      steps = 0;
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    }
    List<Runnable> announce = new ArrayList<>(unannounced);
    unannounced.clear();
    announce.forEach(Runnable::run);
  }

  /**
   * Group commit between the loop's steps: commits when the loop is about to wait ({@code idle}), and
   * otherwise only every {@value #MAX_STEPS_PER_COMMIT} steps, so the events of busy steps share one
   * synced commit while a task that keeps sending messages cannot hold back what was shown.
   */
  void betweenSteps(boolean idle) {
    if (idle || ++steps >= MAX_STEPS_PER_COMMIT) {
      commit();
    }
  }

  /** Journals how the run ended. */
  void finish(RunStatus status, Instant at) throws JournalException {
    journal.finish(status, at);
  }
}
