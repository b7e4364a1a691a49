package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.ClusterVerdict.Kind;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.spi.Execution;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Upstream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the engine asks of the executor (reservations, upstreams, arrays, reattaching, states) against the
 * real cluster; skipped without one.
 */
class SlurmClusterSpiTest {

  private static final long WAIT = 90;
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  private final List<SlurmExecutor> executors = new ArrayList<>();
  private SlurmExecutor executor;

  @BeforeAll
  static void clusterIsUp() {
    LocalCluster.assumeUp();
  }

  @BeforeEach
  void start() {
    executor = executor(LocalCluster.TUNING.withArrayMaxRunning(2));
  }

  @AfterEach
  void stop() {
    executors.forEach(SlurmExecutor::close);
    LocalCluster.clearJobs();
  }

  @Test
  void matrixTasksLaunchedTogetherRunAsOneArrayEachInItsOwnFolder() throws Exception {
    List<LaunchRequest> requests = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      requests.add(request("m" + i, "echo element " + i + "; exit " + i, 256 * MIB).withArrayKey("sweep"));
    }
    Map<LaunchRequest, Exits> exits = new ConcurrentHashMap<>(); // filled on the submission threads

    List<Launch> launches = executor.launchAll(requests, r -> exits.computeIfAbsent(r, k -> new Exits()));

    String array = launches.get(0).execution().flatMap(Execution::clusterId).orElseThrow().split("_")[0];
    for (int i = 0; i < 3; i++) {
      assertThat(launches.get(i).execution().flatMap(Execution::clusterId)).contains(array + "_" + i);
      assertThat(exits.get(requests.get(i)).await(WAIT)).isEqualTo(i);
      assertThat(Files.readString(requests.get(i).stdout())).isEqualTo("element " + i + "\n");
    }
  }

  @Test
  void anAfterokDependantOfAParentThatFailsNeverRunsAndIsUpstreamNotMet() throws Exception {
    Path gate = dir.resolve("gate"); // the parent fails only once its dependant was submitted
    Execution parent = executor.launch(request("parent", waitFor(gate) + "; exit 3", 0), new Exits());
    LaunchRequest child = request("child", "echo never", 0).withUpstream(new Upstream(List.of(parent), true, true, false));
    Exits exits = new Exits();

    Execution dependant = executor.launch(child, exits);

    assertThat(dependant.clusterId()).isPresent();
    Files.createFile(gate);
    assertThat(exits.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(dependant.verdict()).map(ClusterVerdict::kind).contains(Kind.UPSTREAM_NOT_MET);
    assertThat(child.stdout()).doesNotExist();

    Exits late = new Exits();
    Execution lateDependant = executor.launch(request("late", "echo never", 0)
        .withUpstream(new Upstream(List.of(parent), true, true, false)), late);
    assertThat(late.await(WAIT)).isEqualTo(SlurmEnding.TERMINATED_EXIT);
    assertThat(lateDependant.clusterId()).isEmpty();
    assertThat(lateDependant.verdict()).map(ClusterVerdict::kind).contains(Kind.UPSTREAM_NOT_MET);
  }

  @Test
  void aJobPastTheMemoryItsReservationAskedForIsAHostOom() throws Exception {
    LaunchRequest request = new LaunchRequest(TaskId.of("oom"), 1,
        List.of("python3", "-c", "x = bytearray(400*1024*1024); import time; time.sleep(5)"), new TreeMap<>(),
        dir.resolve("oom"), dir.resolve("oom/stdout.log"), dir.resolve("oom/stderr.log"))
        .withReservation(Placement.cpu(100 * MIB, 1000), 0);
    Exits exits = new Exits();

    Execution execution = executor.launch(request, exits);

    assertThat(exits.await(WAIT)).isEqualTo(SlurmEnding.MEMORY_KILL_EXIT);
    assertThat(execution.verdict()).map(ClusterVerdict::kind).contains(Kind.HOST_OOM);
  }

  @Test
  void aBareKill9IsAFailureNotAMemoryKill() throws Exception {
    Exits exits = new Exits();

    Execution execution = executor.launch(request("kill9", "kill -9 $$", 256 * MIB), exits);

    assertThat(exits.await(WAIT)).isEqualTo(SlurmEnding.MEMORY_KILL_EXIT);
    assertThat(execution.verdict()).map(ClusterVerdict::kind).contains(Kind.FAILED);
  }

  @Test
  void anEndedJobReportsThePeakMemoryAndCpuTimeSacctMeasured() throws Exception {
    Exits exits = new Exits();

    Execution execution = executor.launch(new LaunchRequest(TaskId.of("usage"), 1,
        List.of("python3", "-c", "x = bytearray(150*1024*1024); import time; time.sleep(3)"), new TreeMap<>(),
        dir.resolve("usage"), dir.resolve("usage/stdout.log"), dir.resolve("usage/stderr.log"))
        .withReservation(Placement.cpu(400 * MIB, 1000), 0), exits);

    assertThat(exits.await(WAIT)).isZero();
    assertThat(execution.usage().exact()).isTrue();
    assertThat(execution.usage().peakHostMemoryBytes().orElseThrow()).isBetween(150 * MIB, 400 * MIB);
    assertThat(execution.usage().cpuSeconds()).isPresent();
  }

  @Test
  void aNewExecutorReattachesToARunningJobAndGetsItsExit() throws Exception {
    Path gate = dir.resolve("gate"); // the job ends only once the second executor has found it
    LaunchRequest request = request("long", waitFor(gate) + "; exit 5", 0);
    Execution first = executor.launch(request, new Exits());
    String job = first.clusterId().orElseThrow();
    assertThat(SlurmJobs.states(new ProcessCommandRunner(), List.of(job)).get(job)).isIn("PENDING", "RUNNING");
    executor.close();
    SlurmExecutor later = executor(LocalCluster.TUNING);
    Exits exits = new Exits();

    Execution found = later.reattach(request, exits).orElseThrow();

    assertThat(found.clusterId()).contains(job);
    Files.createFile(gate);
    assertThat(exits.await(WAIT)).isEqualTo(5);
    assertThat(found.verdict()).map(ClusterVerdict::kind).contains(Kind.FAILED);
    assertThat(SlurmJobs.states(new ProcessCommandRunner(), List.of(job))).containsEntry(job, "FAILED");
  }

  private SlurmExecutor executor(SlurmTuning tuning) {
    SlurmExecutor created = new SlurmExecutor("cluster", LocalCluster.SLURM, tuning, new ProcessCommandRunner(),
        id -> SlurmResources.DEFAULT);
    executors.add(created);
    return created;
  }

  /** A shell command that waits until {@code gate} exists (or its folder is gone, after a failed test). */
  private static String waitFor(Path gate) {
    return "while [ -d " + gate.getParent() + " ] && [ ! -e " + gate + " ]; do sleep 0.1; done";
  }

  private LaunchRequest request(String task, String shell, long memoryBytes) {
    Path workdir = dir.resolve(task);
    LaunchRequest request = new LaunchRequest(TaskId.of(task), 1, List.of("sh", "-c", shell), new TreeMap<>(), workdir,
        workdir.resolve("stdout.log"), workdir.resolve("stderr.log"));
    return memoryBytes > 0 ? request.withReservation(Placement.cpu(memoryBytes, 1000), 0) : request;
  }
}
