package dev.berth.runtime.contain;

import static org.assertj.core.api.Assumptions.assumeThat;

/** The contract for a cgroup v2 subtree with the memory controller, where this machine offers one. */
class CgroupV2ContainmentTest extends ContainmentContract {

  @Override
  TaskContainment containment() {
    var v2 = CgroupV2Containment.available();
    assumeThat(v2).as("a cgroup v2 group with the memory controller Berth may use on this machine").isPresent();
    return v2.get();
  }
}
