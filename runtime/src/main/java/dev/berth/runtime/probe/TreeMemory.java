package dev.berth.runtime.probe;

import dev.berth.core.model.TaskId;
import java.util.SortedMap;

/** Measures the resident memory of whole process trees. */
interface TreeMemory {

  /**
   * Resident bytes of each task's process and all its descendants; a task whose process is gone is
   * left out.
   */
  SortedMap<TaskId, Long> measure(SortedMap<TaskId, Long> taskPids);
}
