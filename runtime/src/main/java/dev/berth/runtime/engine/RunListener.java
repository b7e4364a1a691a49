package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.report.RunReport;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;

/**
 * Observes a run. Called on the engine's loop thread, after the event is applied; implementations
 * must return quickly and must not call back into the engine.
 */
public interface RunListener {

  /** A listener that ignores everything. */
  RunListener NONE = new RunListener() {};

  /** The run started. */
  default void runStarted(RunState state) {}

  /** A task's history grew by {@code event}. */
  default void taskEvent(TaskRecord task, TaskEvent event) {}

  /** The probes were read. */
  default void probed(HostSnapshot snapshot) {}

  /** A decision pass ran; {@code decisions} says what waits and why. */
  default void decided(Decisions decisions) {}

  /** The run ended and its report is on disk. */
  default void runFinished(RunReport report) {}
}
