package dev.berth.client;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunListener;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A test listener on the engine's thread: records launches so a test can wait for them without
 * sleeping, and the largest number of submitted tasks not yet ended, read from the run state.
 *
 * <p>The engine records a launch before it starts the process (so that a journal knows of it
 * first), and may start the process on a launch thread after the pass: a launch counts once its
 * process runs (its start, with the pid, is announced) or could not start.
 */
final class Events implements RunListener {

  private final BlockingQueue<String> launches = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();
  private volatile RunState state;
  private volatile int maxUnfinished;

  @Override
  public void runStarted(RunState state) {
    this.state = state;
  }

  @Override
  public void taskEvent(TaskRecord task, TaskEvent event) {
    if (event instanceof TaskEvent.Started
        || event instanceof TaskEvent.Ended e && e.outcome() == Outcome.START_FAILED) {
      launches.add(task.spec().id().value());
    }
    int unfinished = (int) state.tasks().stream().filter(r -> !r.state().isTerminal()).count();
    maxUnfinished = Math.max(maxUnfinished, unfinished);
  }

  /** Waits for the next launch, up to 10 seconds, and returns its task id. */
  String nextLaunch() throws InterruptedException {
    String id = launches.poll(10, TimeUnit.SECONDS);
    if (id == null) {
      throw new AssertionError("no task was launched within 10 s; launched so far: " + seen);
    }
    seen.add(id);
    return id;
  }

  /** Waits until {@code id} is launched, up to 10 seconds per launch seen on the way. */
  void awaitLaunch(String id) throws InterruptedException {
    while (!seen.contains(id)) {
      nextLaunch();
    }
  }

  /** The most submitted tasks that were not ended at one time. */
  int maxUnfinished() {
    return maxUnfinished;
  }
}
