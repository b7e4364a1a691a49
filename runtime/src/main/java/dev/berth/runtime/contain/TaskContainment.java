package dev.berth.runtime.contain;

import java.io.IOException;
import java.util.Optional;

/**
 * How this machine keeps a task's processes together: every process a task starts, however it
 * detaches ({@code sleep 45 &}, a {@code setsid} double fork), ends with the task, and what they
 * used together is measured. {@link #detect()} picks the best way the machine allows.
 */
public interface TaskContainment {

  /** A short name of the way, for {@code berth devices} and {@code berth status}: {@code cgroup v2}. */
  String mode();

  /** The mode with where it keeps its containers, for people. */
  String describe();

  /** Whether containers can be given a memory limit that the kernel enforces. */
  boolean limitsMemory();

  /**
   * A new, empty container.
   *
   * @param name unique among this Berth's containers: letters, digits, {@code .}, {@code _}, {@code -}
   * @param memoryLimitBytes a memory limit to enforce, or 0 for none (ignored unless {@link #limitsMemory()})
   * @throws IOException when the container cannot be made; the task may still run uncontained
   */
  Container open(String name, long memoryLimitBytes) throws IOException;

  /** Removes what this containment made for itself, once every container is closed. */
  default void close() {}

  /**
   * The best containment available: a cgroup v2 subtree with the memory controller, else the cgroup
   * v1 memory and cpuacct hierarchies, else process trees found through {@code /proc} by a marker
   * variable. {@code BERTH_CONTAINMENT=process-tree} (or {@code cgroup-v1}, {@code cgroup-v2}) asks
   * for one; one that is not available is passed over.
   */
  static TaskContainment detect() {
    String wanted = System.getenv().getOrDefault("BERTH_CONTAINMENT", "");
    if (!wanted.equals("process-tree") && !wanted.equals("cgroup-v1")) {
      Optional<TaskContainment> v2 = CgroupV2Containment.available();
      if (v2.isPresent()) {
        return v2.get();
      }
    }
    if (!wanted.equals("process-tree")) {
      Optional<TaskContainment> v1 = CgroupV1Containment.available();
      if (v1.isPresent()) {
        return v1.get();
      }
    }
    return processTrees();
  }

  /** How tasks started now would be kept, for people ({@code berth devices}); leaves nothing behind. */
  static String describeAvailable() {
    TaskContainment found = detect();
    try {
      return found.describe();
    } finally {
      found.close();
    }
  }

  /** The fallback that needs no cgroup: processes found by their marker variable. */
  static TaskContainment processTrees() {
    return new ProcessTreeContainment();
  }

  /** A container of the fallback, for an attempt whose own containment could not make one. */
  static Container processTree(String name) {
    return new ProcessTreeContainment().open(name, 0);
  }
}
