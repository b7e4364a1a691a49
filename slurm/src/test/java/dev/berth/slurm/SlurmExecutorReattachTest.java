package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static dev.berth.slurm.Requests.FAST;
import static dev.berth.slurm.Requests.GIB;
import static dev.berth.slurm.Requests.WAIT;
import static dev.berth.slurm.Requests.request;
import static dev.berth.slurm.Requests.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A later Berth finds the jobs an earlier one submitted, from the job-id files. */
class SlurmExecutorReattachTest {

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final SlurmExecutor earlier = Requests.executor(FAST, slurm, clock);
  private final SlurmExecutor later = Requests.executor(FAST, slurm, clock);

  @AfterEach
  void close() {
    earlier.close();
    later.close();
  }

  @Test
  void aNewExecutorTracksARunningJobAgainAndReportsItsExit() throws Exception {
    LaunchRequest request = request(dir, "t", 1);
    earlier.launch(request, new Exits());
    earlier.close();
    Exits exits = new Exits();

    Execution found = later.reattach(request, exits).orElseThrow();
    slurm.end(SlurmJobId.of("100"), "FAILED", "NonZeroExitCode", 4 << 8);

    assertThat(found.clusterId()).contains("100");
    assertThat(exits.afterRounds(clock)).isEqualTo(4);
    assertThat(slurm.calls("sbatch")).hasSize(1);
  }

  @Test
  void aJobThatEndedWhileNoBerthWatchedIsReportedAtOnce() throws Exception {
    LaunchRequest request = request(dir, "t", 1);
    earlier.launch(request, new Exits());
    earlier.close();
    Files.writeString(BatchScript.exitCodeFile(request), "0\n");
    slurm.forget(SlurmJobId.of("100"));
    Exits exits = new Exits();

    later.reattach(request, exits);

    assertThat(exits.afterRounds(clock)).isZero();
  }

  @Test
  void anAttemptThatWasNeverSubmittedIsNotFound() {
    assertThat(later.reattach(request(dir, "t", 1), new Exits())).isEmpty();
    assertThat(SlurmExecutor.recordedJobId(dir.resolve("t"), 1)).isEmpty();
  }

  @Test
  void theRecordedJobIdOfAnAttemptCanBeReadForTheStatus() throws Exception {
    earlier.launch(request(dir, "t", 1), new Exits());
    earlier.launch(request(dir, "t", 2), new Exits());

    assertThat(SlurmExecutor.recordedJobId(dir.resolve("t"), 1)).contains("100");
    assertThat(SlurmExecutor.recordedJobId(dir.resolve("t"), 2)).contains("101");
  }

  @Test
  void aReattachedJobCanBeAParentAndBeTerminated() throws Exception {
    LaunchRequest request = request(dir, "t", 1);
    earlier.launch(request, new Exits());
    earlier.close();
    Exits exits = new Exits();
    Execution found = later.reattach(request, exits).orElseThrow();

    later.launch(request(dir, "c", 1).withUpstream(new dev.berth.spi.Upstream(List.of(found), true, true, false)),
        new Exits());
    found.terminate(0);
    slurm.whenCancelled(SlurmJobId.of("100")).get(WAIT, TimeUnit.SECONDS);

    assertThat(slurm.calls("sbatch").get(1)).contains("--dependency=afterok:100");
    assertThat(exits.afterRounds(clock)).isEqualTo(143);
    assertThat(found.verdict()).isEmpty();
  }

  @Test
  void aMemoryKillOfAReattachedArrayElementIsReadFromItsOwnSlurmLog() throws Exception {
    List<LaunchRequest> requests = List.of(reserved(dir, "m0", GIB).withArrayKey("k"),
        reserved(dir, "m1", GIB).withArrayKey("k"));
    earlier.launchAll(requests, r -> new Exits());
    earlier.close();
    Exits exits = new Exits();
    Execution found = later.reattach(requests.get(1), exits).orElseThrow();
    Files.writeString(SbatchCommand.arrayLog(SlurmExecutor.arrayFolder(requests.get(0)), 1), read("oom-stderr.txt"),
        StandardOpenOption.CREATE, StandardOpenOption.APPEND);

    slurm.end(SlurmJobId.of("100_1"), "FAILED", "JobLaunchFailure", 9);

    assertThat(found.clusterId()).contains("100_1");
    assertThat(exits.afterRounds(clock)).isEqualTo(137);
    assertThat(found.verdict()).map(ClusterVerdict::kind).contains(Kind.HOST_OOM);
  }

  @Test
  void anOldOneLineJobIdFileStillFindsTheJobAndIgnoresEarlierMemoryMessages() throws Exception {
    LaunchRequest request = request(dir, "t", 1);
    earlier.launch(request, new Exits());
    earlier.close();
    Files.writeString(SlurmExecutor.jobIdFile(request), "100\n");
    Files.writeString(request.stderr(), read("oom-stderr.txt"));
    Exits exits = new Exits();

    Execution found = later.reattach(request, exits).orElseThrow();
    slurm.end(SlurmJobId.of("100"), "FAILED", "JobLaunchFailure", 9);

    assertThat(exits.afterRounds(clock)).isEqualTo(137);
    assertThat(((SlurmExecution) found).ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.FAILED);
  }
}
