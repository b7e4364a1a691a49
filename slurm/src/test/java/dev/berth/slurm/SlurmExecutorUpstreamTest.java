package dev.berth.slurm;

import static dev.berth.slurm.Requests.FAST;
import static dev.berth.slurm.Requests.WAIT;
import static dev.berth.slurm.Requests.options;
import static dev.berth.slurm.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Upstream;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Attempts held back for their parents: by Slurm while the parents run, by the executor once they ended. */
class SlurmExecutorUpstreamTest {

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final SlurmExecutor executor = Requests.executor(FAST, slurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void theExecutorHoldsUpstreams() {
    assertThat(executor.holdsUpstream()).isTrue();
  }

  @Test
  void runningParentsBecomeADependencyThatKillsWhatCanNeverRun() throws Exception {
    Execution a = executor.launch(request(dir, "a", 1), new Exits());
    Execution b = executor.launch(request(dir, "b", 1), new Exits());

    executor.launch(child("all", new Upstream(List.of(a, b), true, true, false)), new Exits());
    executor.launch(child("any", new Upstream(List.of(a, b), false, false, true)), new Exits());
    executor.launch(child("either", new Upstream(List.of(a), true, true, true)), new Exits());

    assertThat(slurm.calls("sbatch").subList(2, 5)).extracting(argv -> options(argv, "--dependency="))
        .containsExactly(List.of("--dependency=afterok:100:101"),
            List.of("--dependency=afternotok:100?afternotok:101"), List.of("--dependency=afterany:100"));
    assertThat(slurm.calls("sbatch").get(2)).contains("--kill-on-invalid-dep=yes");
  }

  @Test
  void aParentThatAlreadySucceededIsLeftOutOfTheDependency() throws Exception {
    Execution done = ended("done", "COMPLETED", 0);
    Execution running = executor.launch(request(dir, "running", 1), new Exits());

    executor.launch(child("c", new Upstream(List.of(done, running), true, true, false)), new Exits());
    executor.launch(child("d", new Upstream(List.of(done), true, true, false)), new Exits());

    assertThat(options(slurm.calls("sbatch").get(2), "--dependency=")).containsExactly("--dependency=afterok:101");
    assertThat(slurm.calls("sbatch").get(3)).noneMatch(a -> a.startsWith("--dependency") || a.startsWith("--kill"));
  }

  @Test
  void aParentThatAlreadyFailedEndsAnAfterokDependantAtOnceWithoutSubmittingIt() throws Exception {
    Execution failed = ended("failed", "FAILED", 3 << 8);
    LaunchRequest request = child("c", new Upstream(List.of(failed), true, true, false));
    Exits exits = new Exits();

    Execution dependant = executor.launch(request, exits);

    assertThat(exits.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(exits.thread()).isEqualTo("berth-slurm-exit");
    assertThat(dependant.isAlive()).isFalse();
    assertThat(dependant.clusterId()).isEmpty();
    assertThat(dependant.verdict()).hasValueSatisfying(v -> {
      assertThat(v.kind()).isEqualTo(Kind.UPSTREAM_NOT_MET);
      assertThat(v.reason()).isEqualTo("task c attempt 1 was not submitted to Slurm: Slurm job 100 ended FAILED,"
          + " which a dependency on success does not accept");
    });
    assertThat(slurm.calls("sbatch")).hasSize(1);
    assertThat(SlurmExecutor.jobIdFile(request)).doesNotExist();
  }

  @Test
  void aDependantOfAnAttemptThatWasNeverSubmittedIsNotSubmittedEither() throws Exception {
    Execution failed = ended("failed", "FAILED", 3 << 8);
    Execution never = executor.launch(child("c", new Upstream(List.of(failed), true, true, false)), new Exits());
    Exits exits = new Exits();

    Execution grandchild = executor.launch(child("g", new Upstream(List.of(never), true, true, true)), exits);

    assertThat(exits.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(grandchild.verdict()).map(ClusterVerdict::kind).contains(Kind.UPSTREAM_NOT_MET);
    assertThat(slurm.calls("sbatch")).hasSize(1);
  }

  @Test
  void aDependantSlurmCancelledBecauseItsParentFailedHasTheVerdictUpstreamNotMet() throws Exception {
    Execution parent = executor.launch(request(dir, "p", 1), new Exits());
    Exits exits = new Exits();
    SlurmExecution child = (SlurmExecution) executor.launch(child("c", new Upstream(List.of(parent), true, true, false)),
        exits);
    slurm.end(SlurmJobId.of("100"), "FAILED", "NonZeroExitCode", 3 << 8)
        .end(child.jobId(), "CANCELLED", "DependencyNeverSatisfied", 0);

    assertThat(exits.afterRounds(clock)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(child.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.UPSTREAM_NOT_MET);
    assertThat(child.verdict()).map(ClusterVerdict::kind).contains(Kind.UPSTREAM_NOT_MET);
  }

  @Test
  void aParentThisExecutorDidNotStartFailsTheLaunch() throws Exception {
    Execution foreign;
    try (SlurmExecutor other = Requests.executor(FAST, new FakeSlurm(), clock)) {
      foreign = other.launch(request(dir, "foreign", 1), new Exits());
    }
    Exits exits = new Exits();

    assertThatThrownBy(() -> executor.launch(child("c", new Upstream(List.of(foreign), true, true, false)), exits))
        .isInstanceOf(LaunchException.class)
        .hasMessageStartingWith("cannot start 'true' for task c attempt 1 on Slurm: its upstream Slurm job 100")
        .hasMessageEndingWith("was not started by this Slurm executor, so Slurm cannot hold the attempt back for it");
    assertThat(slurm.calls("sbatch")).isEmpty();
    assertThat(exits.count()).isZero();
  }

  private Execution ended(String task, String state, long waitStatus) throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = (SlurmExecution) executor.launch(request(dir, task, 1), exits);
    slurm.end(execution.jobId(), state, "None", waitStatus);
    exits.afterRounds(clock);
    return execution;
  }

  private LaunchRequest child(String task, Upstream upstream) {
    return request(dir, task, 1).withUpstream(upstream);
  }
}
