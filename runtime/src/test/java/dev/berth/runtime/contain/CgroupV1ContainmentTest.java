package dev.berth.runtime.contain;

import static org.assertj.core.api.Assumptions.assumeThat;

/** The contract for cgroup v1 hierarchies, where this machine lets Berth make cgroups in them. */
class CgroupV1ContainmentTest extends ContainmentContract {

  @Override
  TaskContainment containment() {
    var v1 = CgroupV1Containment.available();
    assumeThat(v1).as("writable cgroup v1 memory and cpuacct hierarchies on this machine").isPresent();
    return v1.get();
  }
}
