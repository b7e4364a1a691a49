package dev.berth.runtime.contain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The contract for cgroup v1 hierarchies, where this machine lets Berth make cgroups in them. */
class CgroupV1ContainmentTest extends ContainmentContract {

  @Override
  TaskContainment containment() {
    var v1 = CgroupV1Containment.available();
    assumeThat(v1).as("writable cgroup v1 memory and cpuacct hierarchies on this machine").isPresent();
    return v1.get();
  }

  @Test
  void groupsLeftByABerthThatIsGoneAreSweptAway() throws Exception {
    containment();
    Path own = CgroupFiles.own(CgroupFiles.MOUNTS.resolve("memory"), CgroupFiles.ownPath("memory").orElse("/"));
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path stale = Files.createDirectories(own.resolve("berth-" + gone.pid()).resolve("task-1"));

    CgroupV1Containment.available().orElseThrow().close();

    assertThat(stale.getParent()).doesNotExist();
  }
}
