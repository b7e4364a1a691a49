package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.spi.Execution;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Array elements cancelled while pending end as cancelled on the real cluster, not lost later; skipped without one. */
class SlurmClusterPendingCancelTest {

  private static final long WAIT = 60;

  @TempDir Path dir;

  private final SlurmExecutor executor = new SlurmExecutor("pending", LocalCluster.SLURM,
      LocalCluster.TUNING.withArrayMaxRunning(1), new ProcessCommandRunner(), id -> SlurmResources.DEFAULT);

  @BeforeAll
  static void clusterIsUp() {
    LocalCluster.assumeUp();
  }

  @AfterEach
  void stop() {
    executor.close();
    LocalCluster.clearJobs();
  }

  @Test
  void pendingElementsBerthCancelsEndAsCancelledBeforeTheyCouldBeCalledLost() throws Exception {
    List<LaunchRequest> requests = new ArrayList<>();
    Map<LaunchRequest, Exits> exits = new ConcurrentHashMap<>(); // filled on the submission threads
    for (int i = 0; i < 4; i++) {
      Path workdir = dir.resolve("m" + i);
      requests.add(new LaunchRequest(TaskId.of("m" + i), 1, List.of("sleep", "60"), new TreeMap<>(), workdir,
          workdir.resolve("stdout.log"), workdir.resolve("stderr.log"))
          .withReservation(Placement.cpu(64L << 20, 1000), 0).withArrayKey("sweep"));
    }
    List<Launch> launches = executor.launchAll(requests, r -> exits.computeIfAbsent(r, k -> new Exits()));
    List<Execution> jobs = launches.stream().map(l -> l.execution().orElseThrow()).toList();
    String first = jobs.get(0).clusterId().orElseThrow();
    awaitState(first, "RUNNING");
    assertThat(state(jobs.get(2).clusterId().orElseThrow())).as("throttled by %1").isEqualTo("PENDING");

    Instant cancelled = Instant.now();
    jobs.get(2).terminate(0);
    jobs.get(3).terminate(0);
    int second = exits.get(requests.get(2)).await(WAIT);
    int third = exits.get(requests.get(3)).await(WAIT);
    Duration took = Duration.between(cancelled, Instant.now());

    assertThat(second).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(third).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(((SlurmExecution) jobs.get(2)).ending().orElseThrow().outcome()).isEqualTo(SlurmOutcome.CANCELLED);
    assertThat(took).as("not called lost after lostAfter (2 min)").isLessThan(Duration.ofSeconds(100));
    assertThat(requests.get(2).stdout()).doesNotExist();
    jobs.get(0).terminate(0);
    jobs.get(1).terminate(0);
    assertThat(exits.get(requests.get(1)).await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    // every job has ended before the test's folder, where their scripts write, is removed
    assertThat(exits.get(requests.get(0)).await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
  }

  private static void awaitState(String job, String state) throws Exception {
    Instant end = Instant.now().plusSeconds(WAIT);
    while (!state(job).equals(state)) {
      if (Instant.now().isAfter(end)) {
        throw new AssertionError("job " + job + " was not " + state + " within " + WAIT + " s");
      }
      Thread.sleep(100); // waiting on a real cluster: there is no event to wait for from here
    }
  }

  private static String state(String job) throws Exception {
    return SlurmJobs.states(new ProcessCommandRunner(), List.of(job)).getOrDefault(job, "");
  }
}
