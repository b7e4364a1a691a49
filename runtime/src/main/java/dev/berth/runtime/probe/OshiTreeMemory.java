package dev.berth.runtime.probe;

import dev.berth.core.model.TaskId;
import java.util.SortedMap;
import java.util.TreeMap;
import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

/** Process-tree memory through OSHI, for systems without a Linux {@code /proc}. */
final class OshiTreeMemory implements TreeMemory {

  private final OperatingSystem os;

  OshiTreeMemory(OperatingSystem os) {
    this.os = os;
  }

  @Override
  public SortedMap<TaskId, Long> measure(SortedMap<TaskId, Long> taskPids) {
    SortedMap<TaskId, Long> result = new TreeMap<>();
    taskPids.forEach((task, pid) -> {
      if (pid < 0 || pid > Integer.MAX_VALUE) {
        return;
      }
      OSProcess root = os.getProcess(pid.intValue());
      if (root != null) {
        long total = Math.max(0, root.getResidentMemory());
        for (OSProcess child : os.getDescendantProcesses(pid.intValue(), null, null, 0)) {
          total += Math.max(0, child.getResidentMemory());
        }
        result.put(task, total);
      }
    });
    return result;
  }
}
