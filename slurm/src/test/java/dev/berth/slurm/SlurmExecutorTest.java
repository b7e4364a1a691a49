package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.os.CommandRunner.Result;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The executor and its tracker against a scripted Slurm on a fake clock: fast, and no cluster needed. */
class SlurmExecutorTest {

  private static final long WAIT = 30;
  /** With {@link Requests#SLURM}'s polling. */
  private static final SlurmTuning FAST = SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(1))
      .withCommandTimeout(Duration.ofSeconds(5)).withLostAfter(Duration.ofMillis(50));

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private SlurmExecutor executor = Requests.executor(FAST, slurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void aLaunchWritesTheScriptSubmitsItAndRecordsTheJobId() throws Exception {
    LaunchRequest request = request("t");
    SlurmExecution execution = submit(request, new Exits());

    assertThat(execution.jobId()).isEqualTo(SlurmJobId.of("100"));
    assertThat(execution.pid()).isEqualTo(-1);
    assertThat(execution.isAlive()).isTrue();
    assertThat(execution.ending()).isEmpty();
    assertThat(BatchScript.scriptFile(request)).content().contains("( exec 'true' )");
    assertThat(SlurmExecutor.jobIdFile(request)).content().startsWith("100\n");
    assertThat(slurm.calls("sbatch")).singleElement().satisfies(argv -> assertThat(argv)
        .contains("--job-name=run.t", BatchScript.scriptFile(request).toString()));
  }

  @Test
  void theExitIsReportedOnceWithTheCodeFromTheExitCodeFile() throws Exception {
    LaunchRequest request = request("three");
    Exits exits = new Exits();
    SlurmExecution execution = submit(request, exits);
    Files.writeString(BatchScript.exitCodeFile(request), "3\n");
    slurm.end(execution.jobId(), "FAILED", "NonZeroExitCode", 768);

    assertThat(exits.afterRounds(clock)).isEqualTo(3);
    runToCompletion("after");
    assertThat(exits.count()).isEqualTo(1);
    assertThat(exits.thread()).isEqualTo("berth-slurm-exit");
    assertThat(execution.isAlive()).isFalse();
    assertThat(execution.state()).isEqualTo(SlurmState.FAILED);
    assertThat(execution.ending()).hasValueSatisfying(e -> {
      assertThat(e.outcome()).isEqualTo(SlurmOutcome.FAILED);
      assertThat(e.fromExitCodeFile()).isTrue();
    });
  }

  @Test
  void withoutAnExitCodeFileSlurmsCodeIsReported() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request("slurm-code"), exits);
    slurm.move(execution.jobId(), "RUNNING").end(execution.jobId(), "FAILED", "NonZeroExitCode", 5 << 8);

    assertThat(exits.afterRounds(clock)).isEqualTo(5);
    assertThat(execution.ending().orElseThrow().fromExitCodeFile()).isFalse();
  }

  @Test
  void oneSqueueCallPerRoundAsksAboutEveryLiveJob() throws Exception {
    Exits a = new Exits();
    Exits b = new Exits();
    Exits c = new Exits();
    SlurmExecution ja = submit(request("a"), a);
    SlurmExecution jb = submit(request("b"), b);
    SlurmExecution jc = submit(request("c"), c);
    CompletableFuture<Void> askedAboutAll = slurm.whenSqueueAsksAbout("100,101,102");
    clock.advance(FAST.pollInitial());
    assertThat(askedAboutAll).isDone();
    slurm.end(ja.jobId(), "COMPLETED", "None", 0).end(jb.jobId(), "COMPLETED", "None", 0)
        .end(jc.jobId(), "COMPLETED", "None", 0);

    assertThat(List.of(a.afterRounds(clock), b.afterRounds(clock), c.afterRounds(clock))).containsOnly(0);
    assertThat(slurm.calls("squeue")).allSatisfy(argv -> assertThat(argv).filteredOn(w -> w.startsWith("--jobs=")).hasSize(1));
  }

  @Test
  void aFailingSqueueCostsARoundAndTrackingGoesOn() throws Exception {
    slurm.answerNextSqueue(new IOException("Cannot run program \"squeue\""))
        .answerNextSqueue(new Result(1, "", "slurm_load_jobs error: Socket timed out on send/recv operation\n", false))
        .answerNextSqueue(new Result(-1, "", "", true));
    Exits exits = new Exits();
    SlurmExecution execution = submit(request("flaky"), exits);
    slurm.end(execution.jobId(), "COMPLETED", "None", 0);

    assertThat(exits.afterRounds(clock)).isZero();
    assertThat(executor.tracker().failures()).isEqualTo(3);
    assertThat(executor.lastError()).isEmpty();
  }

  @Test
  void aMemoryKillOnAClusterWithoutCgroupsIsAHostOutOfMemory() throws Exception {
    LaunchRequest request = request("oom");
    Exits exits = new Exits();
    SlurmExecution execution = submit(request, exits);
    Files.writeString(request.stderr(), read("oom-stderr.txt"), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    slurm.end(execution.jobId(), "FAILED", "JobLaunchFailure", 9);

    assertThat(exits.afterRounds(clock)).isEqualTo(137);
    assertThat(execution.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.HOST_OOM);
  }

  @Test
  void aMemoryMessageOfAnEarlierAttemptDoesNotMakeAKillAMemoryKill() throws Exception {
    LaunchRequest request = request("old-oom");
    Files.createDirectories(request.stderr().getParent());
    Files.writeString(request.stderr(), read("oom-stderr.txt"));
    Exits exits = new Exits();
    SlurmExecution execution = submit(request, exits);
    slurm.end(execution.jobId(), "FAILED", "JobLaunchFailure", 9);

    assertThat(exits.afterRounds(clock)).isEqualTo(137);
    assertThat(execution.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.FAILED);
  }

  @Test
  void slurmSideEndingsAreToldApartThroughTheEnding() throws Exception {
    assertThat(endWith("OUT_OF_MEMORY", "OutOfMemory", 9)).extracting(SlurmEnding::outcome, SlurmEnding::exitCode)
        .containsExactly(SlurmOutcome.HOST_OOM, 137);
    assertThat(endWith("TIMEOUT", "TimeLimit", 15)).extracting(SlurmEnding::outcome, SlurmEnding::exitCode)
        .containsExactly(SlurmOutcome.TIMED_OUT, 143);
    SlurmEnding node = endWith("NODE_FAIL", "None", 0);
    assertThat(node).extracting(SlurmEnding::outcome, SlurmEnding::exitCode)
        .containsExactly(SlurmOutcome.INFRASTRUCTURE, 75);
    assertThat(node.countsAgainstRetries()).isFalse();
  }

  @Test
  void terminateCancelsTheJobAndItsExitIs143() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request("endless"), exits);
    slurm.move(execution.jobId(), "RUNNING");

    execution.terminate(1000);
    slurm.whenCancelled(execution.jobId()).get(WAIT, TimeUnit.SECONDS);

    assertThat(exits.afterRounds(clock)).isEqualTo(143);
    assertThat(slurm.calls("scancel")).containsExactly(List.of("scancel", "100"));
    assertThat(execution.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.CANCELLED);
    assertThat(execution.isAlive()).isFalse();
  }

  @Test
  void aJobSqueueNoLongerListsIsFoundInSacct() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request("purged"), exits);
    slurm.purgeFromSqueue(execution.jobId()).end(execution.jobId(), "FAILED", "None", 4 << 8);

    assertThat(exits.afterRounds(clock)).isEqualTo(4);
    assertThat(slurm.calls("sacct")).isNotEmpty();
  }

  @Test
  void aJobSlurmForgotEndsWithItsExitCodeFile() throws Exception {
    LaunchRequest request = request("forgotten");
    Exits exits = new Exits();
    SlurmExecution execution = submit(request, exits);
    Files.writeString(BatchScript.exitCodeFile(request), "0\n");
    slurm.forget(execution.jobId());

    assertThat(exits.afterRounds(clock)).isZero();
    assertThat(execution.ending().orElseThrow().state()).isEqualTo(SlurmState.UNKNOWN);
  }

  @Test
  void aJobSlurmForgotWithoutAFileIsLostAfterTheGracePeriod() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request("lost"), exits);
    slurm.forget(execution.jobId());

    assertThat(exits.afterRounds(clock)).isEqualTo(SlurmEnding.INFRASTRUCTURE_EXIT);
    assertThat(execution.ending().orElseThrow().reason()).endsWith("lost");
  }

  @Test
  void aRefusedSubmissionIsALaunchFailureWithSlurmsReason() throws Exception {
    slurm.refuseNextSubmission(read("sbatch-error-gres.txt"));
    Exits exits = new Exits();

    assertThatThrownBy(() -> executor.launch(request("big"), exits)).isInstanceOf(LaunchException.class)
        .hasMessage("cannot start 'true' for task big attempt 1 on Slurm: sbatch refused the job: Batch job"
            + " submission failed: Requested node configuration is not available");
    runToCompletion("after-big");
    assertThat(exits.count()).isZero();
  }

  @Test
  void aMissingProgramFailsBeforeAnythingIsSubmitted() {
    LaunchRequest request = request("missing", List.of("berth-no-such-program"), Map.of());

    assertThatThrownBy(() -> executor.launch(request, new Exits())).isInstanceOf(LaunchException.class)
        .hasMessageContaining("'berth-no-such-program' was not found on the PATH");
    assertThat(slurm.calls("sbatch")).isEmpty();
  }

  @Test
  void aVariableAScriptCannotSetFailsTheLaunch() {
    LaunchRequest request = request("env", List.of("true"), Map.of("A-B", "x"));

    assertThatThrownBy(() -> executor.launch(request, new Exits())).isInstanceOf(LaunchException.class)
        .hasMessageContaining("variable name 'A-B' cannot be set");
  }

  @Test
  void anArrayIsTrackedElementByElement() throws Exception {
    List<LaunchRequest> elements = List.of(request("e0"), request("e1"), request("e2"));
    List<Exits> exits = List.of(new Exits(), new Exits(), new Exits());
    ArraySubmission array = new ArraySubmission("sweep", elements, SlurmResources.DEFAULT, 2, dir.resolve("array"),
        Optional.empty());

    List<SlurmExecution> executions = executor.launchArray(array, List.copyOf(exits));

    assertThat(executions).extracting(e -> e.jobId().value()).containsExactly("100_0", "100_1", "100_2");
    assertThat(slurm.calls("sbatch")).singleElement().satisfies(argv -> assertThat(argv).contains("--array=0-2%2"));
    assertThat(SlurmExecutor.jobIdFile(elements.get(1))).content().startsWith("100_1\n");
    Files.writeString(SbatchCommand.arrayLog(array.folder(), 2), read("oom-stderr.txt"));
    slurm.end(executions.get(1).jobId(), "FAILED", "NonZeroExitCode", 1 << 8);
    assertThat(exits.get(1).afterRounds(clock)).isEqualTo(1);
    assertThat(exits.get(0).reported()).isFalse();
    slurm.end(executions.get(0).jobId(), "COMPLETED", "None", 0).end(executions.get(2).jobId(), "FAILED", "None", 9);
    assertThat(exits.get(0).afterRounds(clock)).isZero();
    assertThat(exits.get(2).afterRounds(clock)).isEqualTo(137);
    assertThat(executions.get(2).ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.HOST_OOM);
  }

  @Test
  void aDependencyReachesSbatch() throws Exception {
    SlurmExecution parent = submit(request("parent"), new Exits());
    JobDependency after = JobDependency.of(Dependency.allSucceeded(List.of(TaskId.of("parent"))),
        Map.of(TaskId.of("parent"), parent.jobId()));

    executor.launch(request("child"), SlurmResources.DEFAULT, Optional.of(after), new Exits());

    assertThat(slurm.calls("sbatch")).last().satisfies(argv -> assertThat(argv).contains("--dependency=afterok:100"));
  }

  @Test
  void aRunsTasksAskForTheirOwnResources() throws Exception {
    TaskSpec task = TaskSpec.builder("big", "g").command("true").memoryBytes(3L << 30).cpus(4).build();
    RunSpec run = new RunSpec("sweep", dir.toString(), SchedulerConfig.DEFAULTS, List.of(new GroupSpec("g", List.of(task))));
    executor.close();
    executor = SlurmExecutor.forRun(run, Requests.SLURM, FAST, slurm);

    executor.launch(request("big"), new Exits());
    executor.launch(request("other"), new Exits());

    assertThat(slurm.calls("sbatch").get(0)).contains("--job-name=sweep.big", "--mem=3072M", "--cpus-per-task=4");
    assertThat(slurm.calls("sbatch").get(1)).contains("--cpus-per-task=1").noneMatch(w -> w.startsWith("--mem"));
  }

  @Test
  void aClosedExecutorLaunchesNothing() {
    executor.close();

    assertThatThrownBy(() -> executor.launch(request("late"), new Exits())).isInstanceOf(IllegalStateException.class);
  }

  private SlurmEnding endWith(String state, String reason, long waitStatus) throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request(state.toLowerCase(java.util.Locale.ROOT)), exits);
    slurm.end(execution.jobId(), state, reason, waitStatus);
    exits.afterRounds(clock);
    return execution.ending().orElseThrow();
  }

  private void runToCompletion(String task) throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = submit(request(task), exits);
    slurm.end(execution.jobId(), "COMPLETED", "None", 0);
    exits.afterRounds(clock);
  }

  private LaunchRequest request(String task) {
    return request(task, List.of("true"), Map.of());
  }

  private SlurmExecution submit(LaunchRequest request, ExitListener onExit) throws LaunchException {
    return (SlurmExecution) executor.launch(request, onExit);
  }

  private LaunchRequest request(String task, List<String> command, Map<String, String> env) {
    Path workdir = dir.resolve(task);
    return new LaunchRequest(TaskId.of(task), 1, command, new TreeMap<>(env), workdir, workdir.resolve("stdout.log"),
        workdir.resolve("stderr.log"));
  }
}
