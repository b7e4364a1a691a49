package dev.berth.runtime.contain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a resumed run ends of what a dead Berth's tasks left, when that Berth was killed while it
 * emptied a task's container: the container's freezer group stays frozen, and a frozen process
 * cannot die of SIGKILL until it is thawed.
 */
class LeftoversTest {

  @TempDir Path dir;

  @Test
  void aLeftoverFrozenInADeadBerthsTaskGroupIsThawedSoThatItsKillTakes() throws Exception {
    assumeThat(FrozenTaskGroup.available()).as("a writable cgroup v1 freezer hierarchy on this machine").isTrue();
    assumeThat(ProcScan.usable()).as("/proc").isTrue();
    ProcessBuilder sleep = new ProcessBuilder("sleep", "300");
    sleep.environment().put("BERTH_RUN_DIR", dir.toString());
    Process leftover = sleep.start();
    try (FrozenTaskGroup group = FrozenTaskGroup.create().freeze(leftover.pid())) {
      long began = System.nanoTime();
      Leftovers.end(List.of("BERTH_RUN_DIR=" + dir), List.of(), List.of());
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);

      assertThat(leftover.waitFor(10, TimeUnit.SECONDS)).as("the frozen leftover died").isTrue();
      assertThat(tookMillis).as("ending it did not wait out every round of kills").isLessThan(5_000);
      assertThat(group.path()).as("the dead Berth's task group is removed").doesNotExist();
    } finally {
      leftover.destroyForcibly();
    }
  }
}
