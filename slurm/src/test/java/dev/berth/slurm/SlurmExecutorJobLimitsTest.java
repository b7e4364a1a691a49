package dev.berth.slurm;

import static dev.berth.slurm.Requests.FAST;
import static dev.berth.slurm.Requests.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.scheduling.JobLimit;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How many of the run's jobs the cluster takes: the limits it tells, and what its refusals teach. */
class SlurmExecutorJobLimitsTest {

  private static final long GIB = Requests.GIB;
  private static final String MAX_JOB_COUNT = "MaxJobCount=10000 of the cluster (scontrol)";

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final SlurmExecutor executor = Requests.executor(FAST.withParallelSubmissions(1), slurm, clock);

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void theUsersMaxSubmitJobsAndTheClustersMaxJobCountAreReadOnceAndToldAsJobLimits() {
    slurm.maxSubmitJobs(50, 50);

    List<JobLimit> limits = executor.jobLimits();
    executor.jobLimits();

    assertThat(limits).containsExactly(new JobLimit(50, "MaxSubmitJobs=50 of the user's association (sacctmgr)"),
        new JobLimit(10000, MAX_JOB_COUNT));
    assertThat(slurm.calls("scontrol")).hasSize(1);
    assertThat(slurm.calls("sacctmgr")).singleElement().asList()
        .contains("user=" + System.getProperty("user.name"), "format=MaxSubmitJobs,MaxJobs", "-P", "-n");
  }

  @Test
  void aClusterWithoutAccountingSetsNoLimitOfTheUsers() {
    assertThat(executor.jobLimits()).containsExactly(new JobLimit(10000, MAX_JOB_COUNT));
  }

  @Test
  void aJobRefusedForTheUsersSubmitLimitWaitsForRoomInsteadOfFailingAndTheRestAreNotAskedFor() {
    slurm.maxSubmitJobs(2, -1);
    List<LaunchRequest> requests = List.of(reserved(dir, "a", GIB), reserved(dir, "b", GIB),
        reserved(dir, "c", GIB), reserved(dir, "d", GIB));

    List<Launch> launches = executor.launchAll(requests, r -> new Exits());

    assertThat(launches.subList(0, 2)).allSatisfy(l -> assertThat(l.execution()).isPresent());
    assertThat(launches.subList(2, 4)).allSatisfy(l -> {
      LaunchException refused = l.failure().orElseThrow();
      assertThat(refused.startsLater()).as(refused.getMessage()).isTrue();
      assertThat(refused.getMessage()).contains("was not submitted to Slurm for now", "QOSMaxSubmitJobPerUserLimit");
    });
    assertThat(slurm.calls("sbatch")).as("d is not asked for: c's refusal stands until a job ends").hasSize(3);
    JobLimit taught = executor.jobLimits().stream().filter(l -> l.until().isPresent()).findFirst().orElseThrow();
    assertThat(taught.jobs()).isEqualTo(2);
    assertThat(taught.rule()).startsWith("the cluster took no more: sbatch: QOSMaxSubmitJobPerUserLimit");
    assertThat(taught.until()).contains(clock.instant().plus(QueueRoom.FIRST_WAIT));

    clock.advance(QueueRoom.FIRST_WAIT);

    assertThat(executor.jobLimits()).containsExactly(new JobLimit(10000, MAX_JOB_COUNT));
  }

  @Test
  void anArrayRefusedForTheSubmitLimitLeavesEachOfItsTasksWaitingForRoom() {
    slurm.maxSubmitJobs(2, -1);
    List<LaunchRequest> requests = List.of(reserved(dir, "m0", GIB).withArrayKey("sweep"),
        reserved(dir, "m1", GIB).withArrayKey("sweep"), reserved(dir, "m2", GIB).withArrayKey("sweep"));

    List<Launch> launches = executor.launchAll(requests, r -> new Exits());

    assertThat(launches).allSatisfy(l -> assertThat(l.failure().orElseThrow().startsLater()).isTrue());
    assertThat(launches.get(1).failure().orElseThrow().getMessage())
        .startsWith("task m1 attempt 1 was not submitted to Slurm for now: its job array 'sweep' of 3 tasks");
    assertThat(executor.jobLimits()).anySatisfy(l -> {
      assertThat(l.jobs()).isZero();
      assertThat(l.until()).isEqualTo(Optional.of(clock.instant().plus(Duration.ofSeconds(30))));
    });
  }

  @Test
  void aRefusalForATimeLimitUnderTheSamePolicyMessageStillFailsTheStart() {
    slurm.refuseNextSubmission("sbatch: error: QOSMaxWallDurationPerJobLimit\nsbatch: error: Batch job submission"
        + " failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)\n");

    Launch launch = executor.launchAll(List.of(reserved(dir, "a", GIB)), r -> new Exits()).get(0);

    assertThat(launch.failure().orElseThrow().startsLater()).isFalse();
    assertThat(executor.jobLimits()).containsExactly(new JobLimit(10000, MAX_JOB_COUNT));
  }
}
