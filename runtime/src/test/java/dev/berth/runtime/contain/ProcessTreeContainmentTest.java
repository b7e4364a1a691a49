package dev.berth.runtime.contain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The contract for the fallback: processes found by their marker variable through /proc. */
class ProcessTreeContainmentTest extends ContainmentContract {

  @Override
  TaskContainment containment() {
    assumeThat(ProcScan.usable()).as("this machine has a readable /proc").isTrue();
    return TaskContainment.processTrees();
  }

  @Test
  void aSampleThatFoundNothingDoesNotKeepTheEndFromKillingWhatIsThereThen() throws Exception {
    TaskContainment trees = containment();
    Container container = trees.open("late", 0);
    container.sample(); // nothing carries the marker yet, as when the only process is in the middle of an exec
    ProcessBuilder late = new ProcessBuilder("sleep", "600");
    late.environment().putAll(container.environment());
    Process process = late.start();
    try {
      container.close();

      assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("killed by the container's end").isTrue();
      assertThat(container.isEmpty()).isTrue();
    } finally {
      process.destroyForcibly();
    }
  }
}
