package dev.berth.slurm;

import static dev.berth.slurm.Requests.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.os.CommandRunner;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When the tracker polls and when it gives a job up, on the fake clock. */
class JobTrackerTest {

  private static final SlurmConfig SLURM = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofSeconds(5)).build();
  private static final SlurmTuning TUNING =
      SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(200)).withLostAfter(Duration.ofSeconds(12));

  @TempDir Path dir;

  private final FakeClock clock = new FakeClock();
  private final Instant start = clock.instant();
  private final FakeSlurm slurm = new FakeSlurm();
  private final List<Long> squeueAt = new CopyOnWriteArrayList<>();
  private final CommandRunner timedSlurm = (argv, timeout) -> {
    if (argv.get(0).equals("squeue")) {
      squeueAt.add(Duration.between(start, clock.instant()).toMillis());
    }
    return slurm.run(argv, timeout);
  };
  private final SlurmExecutor executor = Requests.executor(SLURM, TUNING, timedSlurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void theWaitBetweenRoundsDoublesFromTheStepWhileNothingChangesUpToTheMaximum() throws Exception {
    executor.launch(request(dir, "t", 1), new Exits());

    clock.advance(Duration.ofSeconds(17));

    assertThat(squeueAt).containsExactly(200L, 2200L, 6200L, 11200L, 16200L);
  }

  @Test
  void aJobThatEndsBringsTheWaitBackToTheStepAndOneThatStartsDoesNot() throws Exception {
    SlurmExecution a = (SlurmExecution) executor.launch(request(dir, "a", 1), new Exits());
    SlurmExecution b = (SlurmExecution) executor.launch(request(dir, "b", 1), new Exits());
    clock.advance(Duration.ofMillis(3000));
    slurm.move(a.jobId(), "RUNNING");
    clock.advance(Duration.ofMillis(4000));
    slurm.end(b.jobId(), "COMPLETED", "None", 0);

    clock.advance(Duration.ofMillis(6300));

    assertThat(squeueAt).containsExactly(200L, 2200L, 6200L, 11200L, 13200L);
    assertThat(a.state()).isEqualTo(SlurmState.RUNNING);
    assertThat(b.ending()).isPresent();
  }

  @Test
  void aSubmissionBringsTheNextRoundWithinTheInitialWait() throws Exception {
    executor.launch(request(dir, "a", 1), new Exits());
    clock.advance(Duration.ofMillis(3100));

    executor.launch(request(dir, "b", 1), new Exits());
    clock.advance(Duration.ofMillis(2300));

    assertThat(squeueAt).containsExactly(200L, 2200L, 3300L, 5300L);
  }

  @Test
  void aJobSlurmForgotIsLostExactlyLostAfterTheRoundThatMissedItFirst() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    clock.advance(Duration.ofMillis(300));
    slurm.forget(job.jobId());
    clock.advance(Duration.ofMillis(2000)); // the round at 2200 misses it first

    clock.advance(Duration.ofMillis(11_899));
    assertThat(job.ending()).isEmpty();
    clock.advance(Duration.ofMillis(1));

    assertThat(job.ending()).hasValueSatisfying(e -> assertThat(e.reason()).endsWith("lost"));
    assertThat(squeueAt).containsExactly(200L, 2200L, 6200L, 11200L, 14200L);
    assertThat(exits.await(Requests.WAIT)).isEqualTo(SlurmEnding.INFRASTRUCTURE_EXIT);
  }

  @Test
  void withTheDefaultsAnIdleRunAsksSlurmLessThanOnceInTenSecondsAndAtMostOnceAMinute() throws Exception {
    List<Long> at = new CopyOnWriteArrayList<>();
    CommandRunner counted = (argv, timeout) -> {
      at.add(Duration.between(start, clock.instant()).toMillis());
      return slurm.run(argv, timeout);
    };
    try (SlurmExecutor defaults = Requests.executor(SlurmConfig.DEFAULTS, SlurmTuning.DEFAULTS, counted, clock)) {
      defaults.launch(request(dir, "t", 1), new Exits());
      at.clear(); // the submission

      clock.advance(Duration.ofMinutes(10));

      assertThat(at).containsExactly(200L, 2_200L, 6_200L, 14_200L, 30_200L, 62_200L, 122_200L, 182_200L, 242_200L,
          302_200L, 362_200L, 422_200L, 482_200L, 542_200L);
    }
  }

  @Test
  void aSweepOfAThousandMinuteLongTasksAsksSlurmAtMostTenTimesBeyondItsSubmission() throws Exception {
    List<List<String>> calls = new CopyOnWriteArrayList<>();
    CommandRunner counted = (argv, timeout) -> {
      calls.add(argv);
      return slurm.run(argv, timeout);
    };
    List<Exits> exits = new CopyOnWriteArrayList<>();
    try (SlurmExecutor defaults = Requests.executor(SlurmConfig.DEFAULTS, SlurmTuning.DEFAULTS, counted, clock)) {
      List<LaunchRequest> sweep = new java.util.ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        sweep.add(Requests.keyed(dir, "m" + i));
      }
      defaults.launchAll(sweep, r -> {
        Exits e = new Exits();
        exits.add(e);
        return e;
      });
      int submissions = calls.size();
      clock.advance(Duration.ofSeconds(3));
      for (int i = 0; i < 1000; i++) {
        slurm.move(SlurmJobId.of("100_" + i), "RUNNING");
      }
      clock.advance(Duration.ofSeconds(57));
      for (int i = 0; i < 1000; i++) {
        slurm.end(SlurmJobId.of("100_" + i), "COMPLETED", "None", 0);
      }

      clock.advance(Duration.ofMinutes(2));
      for (Exits e : exits) {
        assertThat(e.await(Requests.WAIT)).isZero();
      }

      List<List<String>> polls = calls.subList(submissions, calls.size());
      assertThat(polls).as("rounds at 0.2, 2.2, 6.2, 14.2, 30.2 and 62.2 s; one sacct for the ended jobs")
          .hasSize(7).hasSizeLessThanOrEqualTo(10)
          .allSatisfy(argv -> assertThat(argv.get(0)).isIn("squeue", "sacct"))
          .filteredOn(argv -> argv.get(0).equals("sacct")).singleElement();
    }
  }

  @Test
  void noRoundRunsWhileNoJobIsLive() throws Exception {
    Exits exits = new Exits();
    SlurmExecution job = (SlurmExecution) executor.launch(request(dir, "t", 1), exits);
    slurm.end(job.jobId(), "COMPLETED", "None", 0);
    clock.advance(Duration.ofMillis(200));
    assertThat(exits.await(Requests.WAIT)).isZero();

    clock.advance(Duration.ofMinutes(5));

    assertThat(squeueAt).containsExactly(200L);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void aClosedTrackerPollsNoMore() throws Exception {
    executor.launch(request(dir, "t", 1), new Exits());
    clock.advance(Duration.ofMillis(200));

    executor.close();
    clock.advance(Duration.ofMinutes(5));

    assertThat(squeueAt).containsExactly(200L);
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void eachRoundAsksSqueueOnceAndSacctOnceAboutEveryLiveJob() throws Exception {
    for (String task : List.of("a", "b", "c")) {
      executor.launch(request(dir, task, 1), new Exits());
    }
    List<LaunchRequest> sweep = List.of(Requests.keyed(dir, "m0"), Requests.keyed(dir, "m1"));
    executor.launchAll(sweep, r -> new Exits());
    slurm.purgeFromSqueue(SlurmJobId.of("100")).purgeFromSqueue(SlurmJobId.of("103_1"));

    clock.advance(Duration.ofMillis(200));

    assertThat(slurm.calls("squeue")).singleElement()
        .satisfies(argv -> assertThat(argv).contains("--jobs=100,101,102,103"));
    assertThat(slurm.calls("sacct")).as("one call for the jobs squeue no longer lists, by their own ids")
        .singleElement().satisfies(argv -> assertThat(argv).contains("--jobs=100,103_1"));
  }

  @Test
  void jobsSqueueShowsEndedAndJobsItNoLongerListsShareTheRoundsOneSacctCall() throws Exception {
    for (String task : List.of("a", "b", "c", "d")) {
      executor.launch(request(dir, task, 1), new Exits());
    }
    slurm.purgeFromSqueue(SlurmJobId.of("100"));
    slurm.end(SlurmJobId.of("101"), "COMPLETED", "None", 0).end(SlurmJobId.of("102"), "FAILED", "None", 1 << 8);

    clock.advance(Duration.ofMillis(200));

    assertThat(slurm.calls("squeue")).hasSize(1);
    assertThat(slurm.calls("sacct")).as("one call, with steps, for the ended and the unlisted jobs")
        .singleElement().satisfies(argv -> assertThat(argv).contains("--jobs=100,101,102").doesNotContain("--allocations"));
  }
}
