package dev.berth.runtime.contain;

import static org.assertj.core.api.Assumptions.assumeThat;

/** The contract for the fallback: processes found by their marker variable through /proc. */
class ProcessTreeContainmentTest extends ContainmentContract {

  @Override
  TaskContainment containment() {
    assumeThat(ProcScan.usable()).as("this machine has a readable /proc").isTrue();
    return TaskContainment.processTrees();
  }
}
