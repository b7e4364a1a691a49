package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static dev.berth.slurm.Requests.FAST;
import static dev.berth.slurm.Requests.WAIT;
import static dev.berth.slurm.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the engine learns beyond the exit code, through {@link SlurmExecution#verdict()}. */
class SlurmExecutorVerdictTest {

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final SlurmExecutor executor = Requests.executor(FAST, slurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void theClusterIdIsTheJobId() throws Exception {
    SlurmExecution execution = (SlurmExecution) executor.launch(request(dir, "t", 1), new Exits());

    assertThat(execution.clusterId()).contains("100");
    assertThat(execution.verdict()).isEmpty();
  }

  @Test
  void slurmSideEndingsHaveTheirVerdicts() throws Exception {
    assertThat(kind("NODE_FAIL", "None", 0)).contains(Kind.INFRASTRUCTURE);
    assertThat(kind("PREEMPTED", "None", 0)).contains(Kind.INFRASTRUCTURE);
    assertThat(kind("BOOT_FAIL", "None", 0)).contains(Kind.INFRASTRUCTURE);
    assertThat(kind("OUT_OF_MEMORY", "OutOfMemory", 9)).contains(Kind.HOST_OOM);
    assertThat(kind("TIMEOUT", "TimeLimit", 15)).contains(Kind.TIMED_OUT);
    assertThat(kind("DEADLINE", "None", 15)).contains(Kind.TIMED_OUT);
    assertThat(kind("CANCELLED", "None", 15)).contains(Kind.CANCELLED);
  }

  @Test
  void aSuccessHasNoVerdictAndAFailureSaysItWasNoMemoryKill() throws Exception {
    assertThat(kind("COMPLETED", "None", 0)).isEmpty();
    assertThat(kind("FAILED", "NonZeroExitCode", 3 << 8)).contains(Kind.FAILED);
  }

  @Test
  void aBareSigkillWithoutAMemoryKillOnRecordIsNotOutOfMemory() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = (SlurmExecution) executor.launch(request(dir, "kill9", 1), exits);
    slurm.end(execution.jobId(), "FAILED", "JobLaunchFailure", 9);

    assertThat(exits.afterRounds(clock)).isEqualTo(137);
    assertThat(execution.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.FAILED);
    assertThat(execution.verdict()).map(ClusterVerdict::kind).contains(Kind.FAILED);
  }

  @Test
  void aMemoryKillWithoutCgroupsHasTheVerdictHostOom() throws Exception {
    LaunchRequest request = request(dir, "oom", 1);
    Exits exits = new Exits();
    SlurmExecution execution = (SlurmExecution) executor.launch(request, exits);
    Files.writeString(request.stderr(), read("oom-stderr.txt"), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    slurm.end(execution.jobId(), "FAILED", "JobLaunchFailure", 9);

    assertThat(exits.afterRounds(clock)).isEqualTo(137);
    assertThat(execution.verdict()).map(ClusterVerdict::kind).contains(Kind.HOST_OOM);
  }

  @Test
  void aJobCancelledThroughTerminateHasNoVerdict() throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    slurm.move(execution.jobId(), "RUNNING");

    execution.terminate(0);
    slurm.whenCancelled(execution.jobId()).get(WAIT, TimeUnit.SECONDS);

    assertThat(exits.afterRounds(clock)).isEqualTo(143);
    assertThat(execution.ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.CANCELLED);
    assertThat(execution.verdict()).isEmpty();
  }

  private Optional<Kind> kind(String state, String reason, long waitStatus) throws Exception {
    Exits exits = new Exits();
    SlurmExecution execution = (SlurmExecution) executor.launch(request(dir, state.toLowerCase(java.util.Locale.ROOT)
        + "-" + reason.toLowerCase(java.util.Locale.ROOT), 1), exits);
    slurm.end(execution.jobId(), state, reason, waitStatus);
    exits.afterRounds(clock);
    return execution.verdict().map(ClusterVerdict::kind);
  }
}
