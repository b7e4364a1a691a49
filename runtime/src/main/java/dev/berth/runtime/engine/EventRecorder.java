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

  private final RunState state;
  private final RunListener listener;
  private final List<Runnable> unannounced = new ArrayList<>();
  private Journal journal = Journals.NONE;
  private Function<RunSpec, String> specEncoder;
  private boolean specGrew;

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
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    }
    List<Runnable> announce = new ArrayList<>(unannounced);
    unannounced.clear();
    announce.forEach(Runnable::run);
  }

  /** Journals how the run ended. */
  void finish(RunStatus status, Instant at) throws JournalException {
    journal.finish(status, at);
  }
}
