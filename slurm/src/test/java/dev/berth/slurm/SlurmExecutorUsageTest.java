package dev.berth.slurm;

import static dev.berth.slurm.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.os.CommandRunner;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an ended job reports it used: sacct's MaxRSS and TotalCPU, waiting a moment for sacct to catch up. */
class SlurmExecutorUsageTest {

  private static final SlurmConfig SLURM = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofSeconds(5)).build();
  private static final SlurmTuning TUNING = SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(200));

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final FakeSlurm slurm = new FakeSlurm();
  /** While set, sacct knows nothing yet, as right after a job ended. */
  private final AtomicBoolean sacctLags = new AtomicBoolean();
  private final CommandRunner laggingSlurm = (argv, timeout) -> argv.get(0).equals("sacct") && sacctLags.get()
      ? CommandRunner.Result.exited(0, "") : slurm.run(argv, timeout);
  private final SlurmExecutor executor = Requests.executor(SLURM, TUNING, laggingSlurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void anEndedJobReportsItsLargestStepMemoryAndCpuTimeAsExactFigures() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    assertThat(job.usage()).isEqualTo(MeasuredUsage.NONE);
    slurm.used(job.jobId(), "424520K").end(job.jobId(), "FAILED", "JobLaunchFailure", 9);

    exits.afterRounds(clock);

    assertThat(job.usage()).isEqualTo(new MeasuredUsage(
        OptionalLong.of(424520L * 1024), OptionalDouble.of(1.5), OptionalLong.empty(), true));
  }

  @Test
  void aJobSqueueNoLongerListsReportsWhatSacctMeasured() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    slurm.used(job.jobId(), "2G").end(job.jobId(), "COMPLETED", "None", 0).purgeFromSqueue(job.jobId());

    assertThat(exits.afterRounds(clock)).isZero();
    assertThat(job.usage().peakHostMemoryBytes()).hasValue(2L << 30);
  }

  @Test
  void theAttemptCarriesSacctsTimesNodesAndStateWithItsQueueWait() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    slurm.times(job.jobId(), "2026-11-29T10:00:00", "2026-11-29T10:00:30", "2026-11-29T10:01:30")
        .ranOn(job.jobId(), "node7").end(job.jobId(), "COMPLETED", "None", 0);

    assertThat(exits.afterRounds(clock)).isZero();

    assertThat(job.accounting()).hasValueSatisfying(a -> {
      assertThat(a.jobId()).isEqualTo(job.jobId().value());
      assertThat(a.state()).isEqualTo("COMPLETED");
      assertThat(a.startedAt()).contains(local("2026-11-29T10:00:30"));
      assertThat(a.endedAt()).contains(local("2026-11-29T10:01:30"));
      assertThat(a.queueWait()).contains(Duration.ofSeconds(30));
      assertThat(a.nodes()).isEqualTo("node7");
      assertThat(a.exitCode()).isEqualTo("0:0");
    });
  }

  @Test
  void onlyTheJobsThatEndedAreAskedOfSacctByTheirOwnIds() throws Exception {
    List<SlurmExecution> jobs = executor.launchAll(List.of(Requests.keyed(dir, "m0"), Requests.keyed(dir, "m1"),
        Requests.keyed(dir, "m2")), r -> new Exits()).stream().map(l -> (SlurmExecution) l.execution().orElseThrow())
        .toList();
    clock.advance(Duration.ofSeconds(1));
    assertThat(slurm.calls("sacct")).as("nothing ended yet").isEmpty();

    slurm.end(jobs.get(1).jobId(), "COMPLETED", "None", 0);
    clock.advance(Duration.ofSeconds(2));

    assertThat(slurm.calls("sacct")).singleElement()
        .satisfies(argv -> assertThat(argv).contains("--jobs=" + jobs.get(1).jobId().value()));
    assertThat(jobs.get(1).ending()).isPresent();
  }

  private static Instant local(String sacctTime) {
    return LocalDateTime.parse(sacctTime).atZone(ZoneId.systemDefault()).toInstant();
  }

  @Test
  void anEndWaitsForSacctToCatchUpWhenItDoesWithinTheWait() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    sacctLags.set(true);
    slurm.end(job.jobId(), "COMPLETED", "None", 0);

    clock.advance(Duration.ofMillis(2000)); // the round at 200 ms sees it end; the next comes at 2.2 s
    assertThat(job.isAlive()).as("not reported while sacct lags").isTrue();
    sacctLags.set(false);

    assertThat(exits.afterRounds(clock)).isZero();
    assertThat(job.usage().peakHostMemoryBytes()).hasValue(1024L * 1024);
  }

  @Test
  void anEndIsReportedWithoutMeasurementsOnceSacctLagsLongerThanTheWait() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    sacctLags.set(true);
    slurm.end(job.jobId(), "COMPLETED", "None", 0);

    clock.advance(JobPoll.MEASUREMENT_WAIT.plusMillis(500));

    assertThat(exits.await(Requests.WAIT)).isZero();
    assertThat(job.usage()).isEqualTo(MeasuredUsage.NONE);
  }

  @Test
  void aJobCancelledWhilePendingIsReportedAtOnceWithNothingMeasured() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    sacctLags.set(true);
    slurm.cancel(job.jobId());

    clock.advance(Duration.ofMillis(200));

    assertThat(exits.await(Requests.WAIT)).isEqualTo(143);
    assertThat(job.usage()).isEqualTo(MeasuredUsage.NONE);
  }
}
