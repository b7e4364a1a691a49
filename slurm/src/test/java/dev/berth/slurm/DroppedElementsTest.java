package dev.berth.slurm;

import static dev.berth.slurm.Requests.keyed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Array elements cancelled while pending leave no record in squeue or sacct, only a gap in their array:
 * the tracker ends them as cancelled at once instead of waiting {@code lostAfter} and calling them lost.
 */
class DroppedElementsTest {

  /** A long lostAfter, so an ending that comes within seconds cannot be the loss of the job. */
  private static final SlurmConfig SLURM = SlurmConfig.builder().set(SlurmKeys.POLL_MAX, Duration.ofSeconds(5)).build();
  private static final SlurmTuning TUNING =
      SlurmTuning.DEFAULTS.withPollInitial(Duration.ofMillis(200)).withLostAfter(Duration.ofMinutes(2));

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final SlurmExecutor executor = Requests.executor(SLURM, TUNING, slurm, clock);
  private final List<Exits> exits = List.of(new Exits(), new Exits(), new Exits());

  @AfterEach
  void close() {
    executor.close();
  }

  private List<SlurmExecution> sweep(SlurmExecutor on) {
    List<LaunchRequest> requests = List.of(keyed(dir, "m0"), keyed(dir, "m1"), keyed(dir, "m2"));
    return on.launchAll(requests, r -> exits.get(requests.indexOf(r))).stream()
        .map(l -> (SlurmExecution) l.execution().orElseThrow()).toList();
  }

  @Test
  void aPendingElementBerthCancelsEndsInTheNextRound() throws Exception {
    List<SlurmExecution> jobs = sweep(executor);
    clock.advance(Duration.ofMillis(200)); // a round sees every element pending

    jobs.get(1).terminate(0);
    slurm.whenCancelled(jobs.get(1).jobId()).get(Requests.WAIT, TimeUnit.SECONDS);
    clock.advance(Duration.ofSeconds(2)); // the next round (2 s after the first), whether or not the cancel brought it forward yet

    assertThat(exits.get(1).await(Requests.WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(jobs.get(1).ending()).hasValueSatisfying(e -> {
      assertThat(e.outcome()).isEqualTo(SlurmOutcome.CANCELLED);
      assertThat(e.reason()).isEqualTo("Slurm job 100_1 CANCELLED: cancelled while it was pending"
          + " (its array lists it no more)");
    });
    assertThat(jobs.get(1).verdict()).as("Berth asked for it").isEmpty();
    assertThat(exits.get(0).reported()).isFalse();
  }

  @Test
  void aPendingElementSomeoneElseCancelsEndsAsCancelledByThem() throws Exception {
    List<SlurmExecution> jobs = sweep(executor);
    clock.advance(Duration.ofMillis(200));

    slurm.cancel(jobs.get(2).jobId());
    clock.advance(Duration.ofSeconds(2)); // the next round

    assertThat(exits.get(2).await(Requests.WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(jobs.get(2).verdict()).map(ClusterVerdict::kind).contains(ClusterVerdict.Kind.CANCELLED);
  }

  @Test
  void whenEveryElementIsCancelledWhilePendingTheArraysOwnRecordStillTellsIt() throws Exception {
    List<SlurmExecution> jobs = sweep(executor);
    clock.advance(Duration.ofMillis(200));

    jobs.forEach(j -> slurm.cancel(j.jobId()));
    clock.advance(Duration.ofSeconds(2)); // the next round

    for (Exits e : exits) {
      assertThat(e.await(Requests.WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    }
  }

  @Test
  void aResumeAfterElementsWereCancelledWhileNoBerthWatchedEndsThemCancelledAtOnce() throws Exception {
    List<SlurmExecution> earlier = sweep(executor);
    executor.close();
    slurm.cancel(earlier.get(1).jobId());
    slurm.end(earlier.get(0).jobId(), "COMPLETED", "None", 0).purgeFromSqueue(earlier.get(0).jobId());
    slurm.end(earlier.get(2).jobId(), "COMPLETED", "None", 0).purgeFromSqueue(earlier.get(2).jobId());
    SlurmExecutor later = Requests.executor(SLURM, TUNING, slurm, clock);
    try {
      Exits found = new Exits();
      SlurmExecution again = (SlurmExecution) later.reattach(keyed(dir, "m1"), found).orElseThrow();

      clock.advance(Duration.ofMillis(200));

      assertThat(found.await(Requests.WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
      assertThat(again.ending()).map(SlurmEnding::outcome).contains(SlurmOutcome.CANCELLED);
      assertThat(again.verdict()).map(ClusterVerdict::kind).contains(ClusterVerdict.Kind.CANCELLED);
    } finally {
      later.close();
    }
  }

  @Test
  void anElementLastSeenRunningThatSqueueNoLongerListsIsAskedOfSacct() throws Exception {
    List<SlurmExecution> jobs = sweep(executor);
    slurm.move(jobs.get(1).jobId(), "RUNNING");
    clock.advance(Duration.ofMillis(200));

    slurm.end(jobs.get(1).jobId(), "COMPLETED", "None", 0).purgeFromSqueue(jobs.get(1).jobId());
    clock.advance(Duration.ofSeconds(2)); // the next round

    assertThat(exits.get(1).await(Requests.WAIT)).isZero();
    assertThat(jobs.get(1).ending()).map(SlurmEnding::state).contains(SlurmState.COMPLETED);
  }
}
