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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Records what happens to tasks: each event is applied to the run state and appended to the journal
 * at once, and shown to the listener only once a commit made it durable. Loop thread only.
 *
 * <p>Two kinds of commit. {@link #commitSoon()}, the loop's group commit and the write-ahead of
 * launches, returns once the journal survives the death of this process, so the loop goes on
 * (starts processes, handles exits) while the journal syncs the disk in the background; what the
 * commit holds is shown when the journal says it is durable, through the loop's inbox. {@link #commit()}
 * returns only when everything is durable and shows everything still held back: before a report is
 * written, and between the steps of tests. Either way, nothing is shown before it is durable, and
 * everything is shown in the order it was recorded.
 */
final class EventRecorder {

  private static final int MAX_STEPS_PER_COMMIT = 32;

  /** What one commit holds back until it is durable. */
  private record Batch(long generation, List<Runnable> announcements) {}

  private final RunState state;
  private final RunListener listener;
  private final Consumer<Runnable> toLoop;
  private final List<Runnable> unannounced = new ArrayList<>();
  private final Deque<Batch> notYetDurable = new ArrayDeque<>();
  private Journal journal = Journals.NONE;
  private Function<RunSpec, String> specEncoder;
  private boolean specGrew;
  private boolean written;
  private long generation;
  private int steps;

  /** A recorder whose background commits hand their "durable" notices to the loop through {@code toLoop}. */
  EventRecorder(RunState state, RunListener listener, Consumer<Runnable> toLoop) {
    this.state = state;
    this.listener = listener;
    this.toLoop = toLoop;
  }

  /** Records into this journal from now on. */
  void journal(Journal j) {
    this.journal = j;
  }

  /** Journals the spec, encoded so, whenever it grew since the last commit. */
  void encodeSpecWith(Function<RunSpec, String> encoder) {
    this.specEncoder = encoder;
  }

  /** Applies the event, journals it, and shows it once a commit made it durable. */
  void record(TaskId id, TaskEvent event) {
    state.apply(id, event);
    journal.append(id, event);
    written = true;
    TaskRecord r = state.task(id);
    unannounced.add(() -> listener.taskEvent(r, event));
  }

  /** Tells the listener something once what was recorded before it is durable. */
  void announce(Runnable tell) {
    unannounced.add(tell);
  }

  /** The spec grew (a group was added): the next commit journals it before the group's first event is shown. */
  void specGrew() {
    specGrew = true;
  }

  /** Makes what was recorded durable before returning, then tells the listener everything held back. */
  void commit() {
    try {
      writeSpec();
      journal.flush();
      written = false;
      steps = 0;
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    }
    List<Runnable> announce = new ArrayList<>();
    notYetDurable.forEach(b -> announce.addAll(b.announcements()));
    notYetDurable.clear();
    announce.addAll(unannounced);
    unannounced.clear();
    announce.forEach(Runnable::run);
  }

  /**
   * Commits what was recorded so that it survives this process, and shows it once the journal says
   * it is durable. With nothing new written, what there is to tell waits only for the commits before it.
   */
  void commitSoon() {
    steps = 0;
    if (!written && !specGrew) {
      if (notYetDurable.isEmpty()) {
        runUnannounced();
      } else {
        notYetDurable.getLast().announcements().addAll(unannounced);
        unannounced.clear();
      }
      return;
    }
    long g = ++generation;
    notYetDurable.add(new Batch(g, new ArrayList<>(unannounced)));
    unannounced.clear();
    Thread here = Thread.currentThread();
    try {
      writeSpec();
      written = false;
      // A journal that syncs before returning tells at once, on this thread: show it at once.
      journal.flush(() -> {
        if (Thread.currentThread() == here) {
          durable(g);
        } else {
          toLoop.accept(() -> durable(g));
        }
      });
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    }
  }

  /** The commits up to generation {@code g} are durable: shows what they held, in order. */
  private void durable(long g) {
    while (!notYetDurable.isEmpty() && notYetDurable.getFirst().generation() <= g) {
      notYetDurable.removeFirst().announcements().forEach(Runnable::run);
    }
  }

  private void runUnannounced() {
    List<Runnable> announce = new ArrayList<>(unannounced);
    unannounced.clear();
    announce.forEach(Runnable::run);
  }

  private void writeSpec() {
    if (specGrew && specEncoder != null) {
      journal.updateSpec(specEncoder.apply(state.spec()));
    }
    specGrew = false;
  }

  /**
   * Group commit between the loop's steps: commits when the loop is about to wait ({@code idle}), and
   * otherwise only every {@value #MAX_STEPS_PER_COMMIT} steps, so the events of busy steps share one
   * commit while a task that keeps sending messages cannot hold back what was shown.
   */
  void betweenSteps(boolean idle) {
    if (idle || ++steps >= MAX_STEPS_PER_COMMIT) {
      commitSoon();
    }
  }

  /** Journals how the run ended. */
  void finish(RunStatus status, Instant at) throws JournalException {
    journal.finish(status, at);
  }
}
