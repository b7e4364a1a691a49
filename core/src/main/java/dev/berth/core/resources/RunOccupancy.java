package dev.berth.core.resources;

import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.SortedMap;

/**
 * What a run's tasks hold on the devices now and where Berth placed them before: what the
 * {@link DeviceBudget} starts a decision pass from. The scheduler's run state answers it.
 */
public interface RunOccupancy {

  /**
   * What each task with a process holds now: its launch's host resources plus, while a two-stage
   * task trains, its device; and since when it holds the device part.
   */
  SortedMap<TaskId, Occupancy> occupancy();

  /** Whether the task asked for whole devices, which no other task may share. */
  boolean wantsWholeDevices(TaskId task);

  /** When Berth last placed a task on each GPU, by device index. */
  SortedMap<Integer, Instant> lastPlacedAt();

  /** How many attempts have been placed on GPUs so far: the sequence the random policies use. */
  long gpuPlacements();
}
