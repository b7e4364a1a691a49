package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.TaskSpec;

/**
 * A task in a run: its spec, its history, and its place in submission order.
 *
 * @param spec what to run
 * @param history what happened so far
 * @param seq 0-based submission order across the run, used to break ties
 * @param groupIndex 0-based index of the task's group
 */
public record TaskRecord(TaskSpec spec, TaskHistory history, int seq, int groupIndex) {

  /** The current state. */
  public TaskState state() {
    return history.state();
  }
}
