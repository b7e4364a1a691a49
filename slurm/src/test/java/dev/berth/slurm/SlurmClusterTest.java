package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.core.model.Dependency;
import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.TaskId;
import dev.berth.os.CommandRunner;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor against the real cluster (skipped without one): what the contract test does not cover. */
class SlurmClusterTest {

  private static final long WAIT = 90;
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private SlurmExecutor executor;

  @BeforeAll
  static void clusterIsUp() {
    LocalCluster.assumeUp();
  }

  @BeforeEach
  void start() {
    executor = executor(new ProcessCommandRunner());
  }

  @AfterEach
  void stop() {
    executor.close();
    LocalCluster.clearJobs();
  }

  @Test
  void exitCodesZeroAndThreeArriveWithTheOutputInTheTasksFiles() throws Exception {
    LaunchRequest ok = request("ok", "echo out; echo err >&2");
    LaunchRequest three = request("three", "echo failing; exit 3");
    Exits okExit = new Exits();
    Exits threeExit = new Exits();
    SlurmExecution okJob = submit(ok, okExit);
    SlurmExecution threeJob = submit(three, threeExit);

    assertThat(okExit.await(WAIT)).isZero();
    assertThat(threeExit.await(WAIT)).isEqualTo(3);
    assertThat(Files.readString(ok.stdout())).isEqualTo("out\n");
    assertThat(Files.readString(ok.stderr())).isEqualTo("err\n");
    assertThat(Files.readString(three.stdout())).isEqualTo("failing\n");
    assertThat(okJob.ending().orElseThrow()).extracting(SlurmEnding::state, SlurmEnding::outcome, SlurmEnding::fromExitCodeFile)
        .containsExactly(SlurmState.COMPLETED, SlurmOutcome.SUCCEEDED, true);
    assertThat(threeJob.ending().orElseThrow()).extracting(SlurmEnding::state, SlurmEnding::outcome)
        .containsExactly(SlurmState.FAILED, SlurmOutcome.FAILED);
  }

  @Test
  void variablesWithCommasQuotesAndNewlinesReachTheJob() throws Exception {
    Map<String, String> env = Map.of("A", "x,y=z", "B", "it's \"quoted\"\nand $NOT_EXPANDED");
    LaunchRequest request = request("env", List.of("sh", "-c", "printf '%s|%s' \"$A\" \"$B\""), env);
    Exits exits = new Exits();
    executor.launch(request, exits);

    assertThat(exits.await(WAIT)).isZero();
    assertThat(Files.readString(request.stdout())).isEqualTo("x,y=z|it's \"quoted\"\nand $NOT_EXPANDED");
  }

  @Test
  void anAfterokDependantRunsOnceItsParentSucceeded() throws Exception {
    LaunchRequest parent = request("parent", "sleep 1; touch ../parent.done");
    SlurmExecution parentJob = submit(parent, new Exits());
    Exits child = new Exits();
    executor.launch(request("child", "test -e ../parent.done"), SlurmResources.DEFAULT,
        Optional.of(after(parentJob, true, false)), child);

    assertThat(child.await(WAIT)).isZero();
  }

  @Test
  void anAfterokDependantOfAFailedParentIsCancelledBySlurm() throws Exception {
    Path gate = dir.resolve("gate"); // the parent fails only once its dependant was submitted
    SlurmExecution parentJob = submit(
        request("parent", "while [ -d " + dir + " ] && [ ! -e " + gate + " ]; do sleep 0.1; done; exit 3"), new Exits());
    Exits child = new Exits();
    SlurmExecution childJob = executor.launch(request("child", "echo never"), SlurmResources.DEFAULT,
        Optional.of(after(parentJob, true, false)), child);
    Files.createFile(gate);

    assertThat(child.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(childJob.ending().orElseThrow()).extracting(SlurmEnding::outcome, SlurmEnding::reason)
        .containsExactly(SlurmOutcome.UPSTREAM_NOT_MET, "Slurm job " + childJob.jobId()
            + " CANCELLED (DependencyNeverSatisfied): cancelled by Slurm because a dependency can never be met");
    assertThat(childJob.verdict()).hasValueSatisfying(v -> assertThat(v.kind()).isEqualTo(Kind.UPSTREAM_NOT_MET));
  }

  @Test
  void anAfternotokDependantRunsOnceItsParentFailed() throws Exception {
    SlurmExecution parentJob = submit(request("parent", "exit 3"), new Exits());
    LaunchRequest cleanup = request("cleanup", "echo cleaning up");
    Exits child = new Exits();
    executor.launch(cleanup, SlurmResources.DEFAULT, Optional.of(after(parentJob, false, true)), child);

    assertThat(child.await(WAIT)).isZero();
    assertThat(Files.readString(cleanup.stdout())).isEqualTo("cleaning up\n");
  }

  @Test
  void anArrayOfFourIsTrackedElementByElement() throws Exception {
    List<LaunchRequest> elements = new ArrayList<>();
    List<Exits> exits = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      elements.add(request("element-" + i, "echo element " + i + "; exit " + i));
      exits.add(new Exits());
    }
    ArraySubmission array = new ArraySubmission("four", elements, SlurmResources.DEFAULT, 2, dir.resolve("array-four"),
        Optional.empty());

    List<SlurmExecution> executions = executor.launchArray(array, List.copyOf(exits));

    for (int i = 0; i < 4; i++) {
      assertThat(exits.get(i).await(WAIT)).isEqualTo(i);
      assertThat(Files.readString(elements.get(i).stdout())).isEqualTo("element " + i + "\n");
      assertThat(executions.get(i).jobId().value()).endsWith("_" + i);
      assertThat(exits.get(i).count()).isEqualTo(1);
    }
  }

  @Test
  void scancelEndsAJobAndItsExitIsReported() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request("endless", "sleep 1000"), exits);

    execution.terminate(0);

    assertThat(exits.await(WAIT)).isEqualTo(143);
    assertThat(execution.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.CANCELLED);
  }

  @Test
  void aJobAllocatingFarPastItsMemoryIsKilledAndReportedAsOutOfMemory() throws Exception {
    LaunchRequest request = request("oom",
        List.of("python3", "-c", "x = bytearray(400*1024*1024); import time; time.sleep(5)"), Map.of());
    Exits exits = new Exits();
    SlurmExecution execution = executor.launch(request,
        new SlurmResources(100 * MIB, 1000, GpuRequest.NONE, Optional.empty()), Optional.empty(), exits);

    assertThat(exits.await(WAIT)).isEqualTo(SlurmEnding.MEMORY_KILL_EXIT);
    SlurmEnding ending = execution.ending().orElseThrow();
    assertThat(ending.outcome()).isEqualTo(SlurmOutcome.HOST_OOM);
    // This cluster has no cgroups: Slurm's sampler kills the step, the state is FAILED (not OUT_OF_MEMORY)
    // and only the message in the job's error file tells a memory kill from any other SIGKILL.
    assertThat(ending.state()).isIn(SlurmState.FAILED, SlurmState.OUT_OF_MEMORY);
    assertThat(Files.readString(request.stderr())).contains("Exceeded job memory limit");
  }

  @Test
  void aJobPastItsTimeLimitIsReportedAsTimedOut() throws Exception {
    assumeTrue(Boolean.getBoolean("berth.slurm.slow"),
        "takes 1 to 2 minutes (Slurm's limits are whole minutes, checked every 30 s); run with -Dberth.slurm.slow=true");
    Exits exits = new Exits();
    SlurmExecution execution = executor.launch(request("slow", "sleep 600"),
        new SlurmResources(0, 1000, GpuRequest.NONE, Optional.of(Duration.ofSeconds(1))), Optional.empty(), exits);

    assertThat(exits.await(180)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(execution.ending().orElseThrow()).extracting(SlurmEnding::state, SlurmEnding::outcome)
        .containsExactly(SlurmState.TIMEOUT, SlurmOutcome.TIMED_OUT);
  }

  @Test
  void gpusAndGpuMemorySharesAreAskedAsGres() throws Exception {
    LaunchRequest whole = request("whole", "echo \"$CUDA_VISIBLE_DEVICES\"");
    LaunchRequest share = request("share", "true");
    Exits wholeExit = new Exits();
    Exits shareExit = new Exits();
    executor.close();
    executor = new SlurmExecutor("cluster", LocalCluster.SLURM.toBuilder()
        .set(SlurmKeys.GPU_MEMORY_GRES, "gpumem:1MiB").build(),
        LocalCluster.TUNING, new ProcessCommandRunner(), id -> SlurmResources.DEFAULT);

    executor.launch(whole, new SlurmResources(0, 1000, GpuRequest.whole(1), Optional.empty()), Optional.empty(), wholeExit);
    executor.launch(share, new SlurmResources(0, 1000, GpuRequest.share(8L << 30), Optional.empty()), Optional.empty(),
        shareExit);

    assertThat(wholeExit.await(WAIT)).isZero();
    assertThat(shareExit.await(WAIT)).isZero();
    assertThat(Files.readString(whole.stdout())).isEqualTo("0\n");
  }

  @Test
  void aJobTheClusterCannotHoldIsRefusedAtLaunch() {
    LaunchRequest request = request("too-many-gpus", "true");
    SlurmResources sixteen = new SlurmResources(0, 1000, GpuRequest.whole(16), Optional.empty());

    assertThatThrownBy(() -> executor.launch(request, sixteen, Optional.empty(), new Exits()))
        .isInstanceOf(LaunchException.class)
        .hasMessageEndingWith("sbatch refused the job: Batch job submission failed: Requested node configuration is"
            + " not available");
  }

  @Test
  void theTrackerSurvivesSqueueFailingOnce() throws Exception {
    FailingFirstSqueue runner = new FailingFirstSqueue(new ProcessCommandRunner());
    executor.close();
    executor = executor(runner);
    Exits exits = new Exits();
    executor.launch(request("survivor", "exit 4"), exits);

    assertThat(exits.await(WAIT)).isEqualTo(4);
    assertThat(runner.squeueCalls.get()).isGreaterThan(1);
    assertThat(executor.tracker().failures()).isEqualTo(1);
  }

  @Test
  void twentyTinyJobsAreSubmittedAndTrackedWithTheDefaultSettings() throws Exception {
    executor.close();
    executor = new SlurmExecutor("cluster", SlurmConfig.DEFAULTS, SlurmTuning.DEFAULTS, new ProcessCommandRunner(),
        id -> SlurmResources.DEFAULT);
    List<Exits> exits = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < 20; i++) {
      Exits e = new Exits();
      executor.launch(request("tiny-" + i, List.of("true"), Map.of()), e);
      exits.add(e);
    }
    long submitted = System.nanoTime();
    for (Exits e : exits) {
      assertThat(e.await(WAIT)).isZero();
    }
    long done = System.nanoTime();

    System.out.printf("20 tiny jobs: submitted in %d ms, all exits reported after %d ms, %d squeue rounds%n",
        (submitted - start) / 1_000_000, (done - start) / 1_000_000, executor.tracker().polls());
  }

  private static SlurmExecutor executor(CommandRunner runner) {
    return new SlurmExecutor("cluster", LocalCluster.SLURM, LocalCluster.TUNING, runner, id -> SlurmResources.DEFAULT);
  }

  private static JobDependency after(SlurmExecution parent, boolean success, boolean failure) {
    return JobDependency.of(new Dependency(List.of(parent.task()), true, success, failure),
        Map.of(parent.task(), parent.jobId()));
  }

  private SlurmExecution submit(LaunchRequest request, ExitListener onExit) throws LaunchException {
    return (SlurmExecution) executor.launch(request, onExit);
  }

  private LaunchRequest request(String task, String shell) {
    return request(task, List.of("sh", "-c", shell), Map.of());
  }

  private LaunchRequest request(String task, List<String> command, Map<String, String> env) {
    Path workdir = dir.resolve(task);
    return new LaunchRequest(TaskId.of(task), 1, command, new TreeMap<>(env), workdir, workdir.resolve("stdout.log"),
        workdir.resolve("stderr.log"));
  }

  /** Runs commands for real, except that the first squeue call fails as if the controller were away. */
  private static final class FailingFirstSqueue implements CommandRunner {
    private final CommandRunner real;
    final AtomicInteger squeueCalls = new AtomicInteger();

    FailingFirstSqueue(CommandRunner real) {
      this.real = real;
    }

    @Override
    public Result run(List<String> argv, Duration timeout) throws IOException {
      if (argv.get(0).equals("squeue") && squeueCalls.incrementAndGet() == 1) {
        return new Result(1, "", "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n", false);
      }
      return real.run(argv, timeout);
    }
  }
}
