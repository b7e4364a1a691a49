package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import dev.berth.core.model.TaskId;
import dev.berth.os.CommandRunner;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Upstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single job's pending parent cancelled from outside Berth on the real cluster: its afterok dependant
 * never runs and ends as unreachable for that parent's ending, never as succeeded; skipped without one.
 */
class SlurmClusterOutsideCancelTest {

  private static final long WAIT = 60;

  @TempDir Path dir;

  private final SlurmExecutor executor = new SlurmExecutor("outside", LocalCluster.SLURM, LocalCluster.TUNING,
      new ProcessCommandRunner(), id -> SlurmResources.DEFAULT);

  @BeforeAll
  static void clusterIsUp() {
    LocalCluster.assumeUp();
  }

  @AfterEach
  void stop() {
    executor.close();
    LocalCluster.clearJobs();
  }

  @Test
  void aPendingParentScancelledOutsideBerthLeavesItsDependantNeverRunAndUpstreamNotMet() throws Exception {
    Path gate = dir.resolve("gate");
    Exits blockerExits = new Exits();
    Execution blocker = executor.launch(request("blocker", "while [ -d " + dir + " ] && [ ! -e " + gate
        + " ]; do sleep 0.1; done"), blockerExits);
    // Pending behind the blocker, as a parent waiting for its own parent, or for a node, is.
    Exits parentExits = new Exits();
    Execution parent = executor.launch(request("parent", "echo parent ran"), SlurmResources.DEFAULT,
        Optional.of(new JobDependency(List.of(((SlurmExecution) blocker).jobId()), true, true, false)), parentExits);
    LaunchRequest child = request("child", "echo child ran")
        .withUpstream(new Upstream(List.of(parent), true, true, false));
    Exits childExits = new Exits();
    Execution dependant = executor.launch(child, childExits);
    assertThat(dependant.clusterId()).as("handed to Slurm with afterok on the parent").isPresent();

    CommandRunner.Result scancel = new ProcessCommandRunner()
        .run(List.of("scancel", parent.clusterId().orElseThrow()), Duration.ofSeconds(30));

    assertThat(scancel.succeeded()).as(scancel.stderr()).isTrue();
    assertThat(parentExits.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(parent.verdict()).map(ClusterVerdict::kind).contains(Kind.CANCELLED);
    assertThat(childExits.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(dependant.verdict()).map(ClusterVerdict::kind).contains(Kind.UPSTREAM_NOT_MET);
    assertThat(child.stdout()).as("the dependant never ran").doesNotExist();
    Files.createFile(gate);
    // The blocker writes into the test's folder until it ends; the folder is removed only after that.
    assertThat(blockerExits.await(WAIT)).isZero();
  }

  private LaunchRequest request(String task, String shell) {
    Path workdir = dir.resolve(task);
    return new LaunchRequest(TaskId.of(task), 1, List.of("sh", "-c", shell), new TreeMap<>(), workdir,
        workdir.resolve("stdout.log"), workdir.resolve("stderr.log"));
  }
}
