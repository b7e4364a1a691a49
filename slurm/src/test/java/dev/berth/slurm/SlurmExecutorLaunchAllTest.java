package dev.berth.slurm;

import static dev.berth.slurm.Recordings.read;
import static dev.berth.slurm.Requests.FAST;
import static dev.berth.slurm.Requests.WAIT;
import static dev.berth.slurm.Requests.reserved;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.os.CommandRunner;
import dev.berth.spi.Execution;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One decision pass's attempts: matrix tasks with equal resources share a job array. */
class SlurmExecutorLaunchAllTest {

  private static final long GIB = Requests.GIB;

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final Map<LaunchRequest, Exits> exits = new ConcurrentHashMap<>(); // filled on the submission threads
  private SlurmExecutor executor = executor(Requests.SLURM, FAST.withArrayMaxRunning(4));

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void matrixTasksWithEqualResourcesBecomeOneArrayAndTheOthersSingleJobs() throws Exception {
    List<LaunchRequest> requests = List.of(keyed("m0", GIB), reserved(dir, "alone", GIB), keyed("m1", GIB),
        keyed("m2", GIB));

    List<Launch> launches = executor.launchAll(requests, this::listener);

    assertThat(launches).extracting(Launch::request).containsExactlyElementsOf(requests);
    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .containsExactly("100_0", "101", "100_1", "100_2");
    assertThat(slurm.calls("sbatch")).hasSize(2);
    assertThat(slurm.calls("sbatch").get(0)).contains("--job-name=run.sweep", "--array=0-2%4", "--mem=1024M");
    assertThat(slurm.calls("sbatch").get(1)).contains("--job-name=run.alone").noneMatch(a -> a.startsWith("--array"));
    assertThat(SlurmExecutor.jobIdFile(requests.get(3))).content().startsWith("100_2\n");
    slurm.end(SlurmJobId.of("100_1"), "FAILED", "NonZeroExitCode", 2 << 8);
    assertThat(exits.get(requests.get(2)).afterRounds(clock)).isEqualTo(2);
    assertThat(exits.get(requests.get(0)).reported()).isFalse();
  }

  @Test
  void matrixTasksAskingForDifferentMemoryAreNotOneArray() {
    List<LaunchRequest> requests = List.of(keyed("m0", GIB), keyed("m1", 2 * GIB), keyed("m2", GIB));

    List<Launch> launches = executor.launchAll(requests, this::listener);

    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .containsExactly("100_0", "101", "100_1");
  }

  @Test
  void withArraysTurnedOffEveryAttemptIsItsOwnJob() {
    executor.close();
    executor = executor(Requests.SLURM.toBuilder().set(SlurmKeys.ARRAYS, false).build(), FAST);

    List<Launch> launches = executor.launchAll(List.of(keyed("m0", GIB), keyed("m1", GIB)), this::listener);

    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .containsExactly("100", "101");
    assertThat(slurm.calls("sbatch")).noneMatch(argv -> argv.stream().anyMatch(a -> a.startsWith("--array")));
  }

  @Test
  void aRefusedArrayFailsEachOfItsRequestsAndTheOthersStillStart() throws Exception {
    slurm.refuseNextSubmission(read("sbatch-error-memory.txt"));
    List<LaunchRequest> requests = List.of(keyed("m0", GIB), keyed("m1", GIB), reserved(dir, "alone", GIB));

    List<Launch> launches = executor.launchAll(requests, this::listener);

    assertThat(launches.subList(0, 2)).allSatisfy(l -> assertThat(l.failure()).isPresent());
    assertThat(launches.get(1).failure().map(LaunchException::getMessage).orElseThrow())
        .isEqualTo("cannot start 'true' for task m1 attempt 1 on Slurm: its job array 'sweep' of 2 tasks was not"
            + " submitted: sbatch refused the job: Memory specification can not be satisfied; Batch job submission"
            + " failed: Requested node configuration is not available");
    assertThat(launches.get(2).execution()).isPresent();
    assertThat(exits.get(requests.get(0)).count()).isZero();
  }

  @Test
  void aSweepLargerThanTheClustersMaxArraySizeIsCutIntoArraysItAccepts() {
    slurm.maxArraySize(50);
    List<LaunchRequest> requests = java.util.stream.IntStream.range(0, 200).mapToObj(i -> keyed("m" + i, GIB))
        .toList();

    List<Launch> launches = executor.launchAll(requests, this::listener);

    assertThat(launches).allSatisfy(l -> assertThat(l.failure()).isEmpty());
    assertThat(slurm.calls("sbatch")).hasSize(4).allSatisfy(argv -> assertThat(argv).contains("--array=0-49%4"));
    assertThat(slurm.calls("scontrol")).as("the limit is read once").hasSize(1);
  }

  @Test
  void anArrayRefusedForItsSizeIsSplitAndSubmittedAgainNeverFailingItsTasks() {
    slurm.maxArraySize(50, -1); // a limit the configuration does not show
    List<LaunchRequest> requests = java.util.stream.IntStream.range(0, 200).mapToObj(i -> keyed("m" + i, GIB))
        .toList();

    List<Launch> launches = executor.launchAll(requests, this::listener);
    List<Launch> more = executor.launchAll(List.of(keyed("n0", GIB), keyed("n1", GIB)), this::listener);

    assertThat(launches).allSatisfy(l -> assertThat(l.failure()).isEmpty());
    assertThat(more).allSatisfy(l -> assertThat(l.failure()).isEmpty());
    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .doesNotHaveDuplicates().hasSize(200);
    long refused = slurm.calls("sbatch").stream().filter(argv -> argv.stream().anyMatch(a -> a.startsWith("--array=0-")
        && Integer.parseInt(a.substring(10).split("%")[0]) >= 50)).count();
    assertThat(refused).as("200 refused, then 100 twice; later arrays are cut to what was accepted").isEqualTo(3);
  }

  @Test
  void aLoneMatrixTaskIsAnOrdinaryJob() {
    List<Launch> launches = executor.launchAll(List.of(keyed("m0", GIB)), this::listener);

    assertThat(launches).singleElement().satisfies(l -> assertThat(l.execution().flatMap(Execution::clusterId))
        .contains("100"));
  }

  @Test
  void aMissingProgramFailsOnlyItsOwnRequest() {
    LaunchRequest ok = reserved(dir, "missing", GIB);
    LaunchRequest missing = new LaunchRequest(ok.task(), 1, List.of("berth-no-such-program"), ok.env(), ok.workdir(),
        ok.stdout(), ok.stderr(), ok.reservation(), 0, Optional.empty(), Optional.empty());

    List<Launch> launches = executor.launchAll(List.of(missing, reserved(dir, "ok", GIB)), this::listener);

    assertThat(launches.get(0).failure()).map(LaunchException::getMessage).hasValueSatisfying(m ->
        assertThat(m).contains("'berth-no-such-program' was not found"));
    assertThat(launches.get(1).execution()).isPresent();
    assertThat(launches.get(0).execution()).isEqualTo(Optional.empty());
  }

  private Exits listener(LaunchRequest request) {
    return exits.computeIfAbsent(request, r -> new Exits());
  }

  private LaunchRequest keyed(String task, long memoryBytes) {
    return reserved(dir, task, memoryBytes).withArrayKey("sweep");
  }

  @Test
  void singleJobsAreSubmittedSeveralAtATimeBecauseEachSbatchWaitsForTheController() throws Exception {
    int n = 3;
    CountDownLatch allInFlight = new CountDownLatch(n);
    CommandRunner waitingForEachOther = (argv, timeout) -> {
      if (argv.get(0).equals("sbatch")) {
        allInFlight.countDown();
        // Answers only once all n calls are in flight together: a one-at-a-time executor never gets here.
        try {
          if (!allInFlight.await(WAIT, TimeUnit.SECONDS)) {
            throw new IOException("sbatch calls were not made in parallel");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted", e);
        }
      }
      return slurm.run(argv, timeout);
    };
    executor.close();
    executor = Requests.executor(FAST.withParallelSubmissions(n), waitingForEachOther, clock);
    List<LaunchRequest> requests = List.of(reserved(dir, "a", GIB), reserved(dir, "b", GIB), reserved(dir, "c", GIB));

    List<Launch> launches = executor.launchAll(requests, this::listener);

    assertThat(launches).extracting(Launch::request).containsExactlyElementsOf(requests);
    assertThat(launches).allSatisfy(l -> assertThat(l.execution()).isPresent());
    assertThat(slurm.calls("sbatch")).hasSize(n);
  }

  private SlurmExecutor executor(SlurmConfig config, SlurmTuning tuning) {
    return Requests.executor(config, tuning, slurm, clock);
  }
}
