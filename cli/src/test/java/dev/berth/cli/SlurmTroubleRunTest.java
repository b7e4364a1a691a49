package dev.berth.cli;

import static dev.berth.cli.SlurmRuns.await;
import static dev.berth.cli.SlurmRuns.berthProcess;
import static dev.berth.cli.SlurmRuns.outcomes;
import static dev.berth.cli.SlurmRuns.report;
import static dev.berth.cli.SlurmRuns.spec;
import static dev.berth.cli.SlurmRuns.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.testkit.TestSlurm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole runs on the real Slurm cluster when things go wrong: the controller stopped for 15 s in the middle
 * of a sweep, array elements cancelled while no Berth runs, and an allocation too small for all its tasks at
 * once. Skipped without a cluster; the controller test also needs root and the local cluster's pid file.
 */
class SlurmTroubleRunTest {

  private static final Path CONTROLLER_PID = Path.of("/run/slurm-local/slurmctld.pid");

  @TempDir Path dir;

  @BeforeAll
  static void needsACluster() {
    TestSlurm.assumeUp();
  }

  /** No job of a test outlives it: a job left running writes into the test's folder as it ends. */
  @AfterEach
  void clearJobs() {
    TestSlurm.clearJobs();
  }

  @Test
  void aSweepRunsToTheEndThoughTheControllerStopsForFifteenSecondsInTheMiddle() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")) && Files.exists(CONTROLLER_PID),
        "stopping slurmctld needs root and the local cluster's " + CONTROLLER_PID);
    Path file = spec(dir, "outage", """
        slurm: {poll-max: 1s}
        groups:
          - name: first
            memory: 100MiB
            tasks:
              - {id: "a{i}", matrix: {i: [1, 2, 3]}, command: [sleep, "4"]}
          - name: second
            memory: 100MiB
            tasks:
              - {id: "b{i}", matrix: {i: [1, 2, 3]}, command: [sleep, "1"]}
        """);
    Path log = dir.resolve("outage.log");
    Process berth = berthProcess(log, "run", "--no-progress", file.toString());
    await("the first group to be submitted", Duration.ofSeconds(60),
        () -> Files.exists(dir.resolve("outage/first/a3/berth-slurm-job.1")));

    stopController();
    Thread.sleep(15_000); // the outage itself: the first group ends on its node while no controller answers
    startController();

    // Where the outage outlasted the node's answer, Slurm requeues its jobs to begin a while later
    // (pending, reason BeginTime): the sweep still ends, later.
    assertThat(berth.waitFor(300, TimeUnit.SECONDS)).as(Files.readString(log)).isTrue();
    assertThat(berth.exitValue()).as(Files.readString(log)).isZero();
    JsonNode report = report(dir, "outage");
    for (String id : List.of("a1", "a2", "a3", "b1", "b2", "b3")) {
      assertThat(outcomes(task(report, id))).as(id).containsExactly("SUCCEEDED");
    }
  }

  @Test
  void arrayElementsCancelledWhileNoBerthRanAreNotRunByTheResume() throws Exception {
    // The running element waits for the gate and takes both of the node's CPUs, so m2 and m3 are still
    // pending when they are cancelled.
    Path gate = dir.resolve("gate");
    Path file = spec(dir, "gone", """
        config: {scheduler: {max-process: 4}}
        slurm: {poll-max: 1s}
        groups:
          - name: g
            memory: 100MiB
            cpus: 2
            tasks:
              - id: "m{i}"
                matrix: {i: [0, 1, 2, 3]}
                command: [sh, -c, "echo ran; while [ -d %s ] && [ ! -e %s ]; do sleep 0.1; done"]
        """.formatted(dir, gate));
    Process berth = berthProcess(dir.resolve("gone.log"), "run", "--no-progress", "--on-exit", "leave",
        file.toString());
    Path jobFile = dir.resolve("gone/g/m3/berth-slurm-job.1");
    await("the array to be submitted", Duration.ofSeconds(60), () -> Files.exists(jobFile));
    berth.destroy();
    assertThat(berth.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> pending = new ArrayList<>();
    for (String task : List.of("m2", "m3")) {
      pending.add(Files.readAllLines(dir.resolve("gone/g/" + task + "/berth-slurm-job.1")).get(0));
    }

    Process scancel = new ProcessBuilder(List.of("scancel", pending.get(0), pending.get(1))).inheritIO().start();
    assertThat(scancel.waitFor(60, TimeUnit.SECONDS)).isTrue();
    Files.createFile(gate);
    Instant resumed = Instant.now();
    CliRunner resume = CliRunner.berth("resume", "--no-progress", dir.resolve("gone").toString());

    assertThat(resume.exitCode).as(resume.out + resume.err).isEqualTo(ExitCodes.TASKS_FAILED);
    JsonNode report = report(dir, "gone");
    for (String cancelled : List.of("m2", "m3")) {
      assertThat(task(report, cancelled).get("status").asText()).as(cancelled).isEqualTo("CANCELLED");
      assertThat(task(report, cancelled).get("attempts")).as(cancelled + " never ran again").hasSize(1);
      // stdout.log links to the attempt's own log, made empty at submission; only a job that ran writes to it.
      Path out = dir.resolve("gone/g/" + cancelled + "/stdout.log");
      assertThat(Files.exists(out) ? Files.size(out) : 0L).as(cancelled + " wrote no output").isZero();
    }
    assertThat(outcomes(task(report, "m0"))).containsExactly("SUCCEEDED");
    assertThat(outcomes(task(report, "m1"))).containsExactly("SUCCEEDED");
    assertThat(Duration.between(resumed, Instant.now())).as("not after lost-after (2 min)")
        .isLessThan(Duration.ofSeconds(100));
  }

  @Test
  void anInnerBerthInAOneGibAllocationNeverStartsMoreThanFits() throws Exception {
    Path file = spec(dir, "small", """
        slurm: {mode: allocation, cpus: 2, memory: 1GiB, time: 10m, poll-max: 1s}
        groups:
          - name: g
            memory: 300MiB
            cpus: 0.25
            tasks:
              - id: "t{i}"
                matrix: {i: [1, 2, 3, 4, 5, 6]}
                command: [python3, -c, "import time; x = bytearray(250 * 2**20); print(time.time()); time.sleep(2);\
         print(time.time())"]
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    List<double[]> spans = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      List<String> times = Files.readAllLines(dir.resolve("small/g/t" + i + "/stdout.log"));
      spans.add(new double[] {Double.parseDouble(times.get(0)), Double.parseDouble(times.get(1))});
    }
    assertThat(mostAtOnce(spans)).as("300 MiB each in 1 GiB, beside the Berth inside").isBetween(1, 3);
  }

  @Test
  void aTaskOverItsMemoryInsideAnAllocationEndsAloneAsOutOfMemoryAndGrowsWhileTheAllocationGoesOn() throws Exception {
    Path file = spec(dir, "hog", """
        slurm: {mode: allocation, cpus: 2, memory: 1GiB, time: 10m, poll-max: 1s, max-allocations: 2}
        groups:
          - name: g
            tasks:
              - {id: hog, memory: 200MiB, command: [python3, -c, "import time; b = bytearray(1400 << 20); time.sleep(3)"]}
              - {id: calm, memory: 100MiB, command: [sleep, "2"]}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(1);
    JsonNode report = report(dir, "hog");
    assertThat(outcomes(task(report, "hog"))).as("killed alone, retried bigger, not interrupted with the allocation")
        .containsExactly("HOST_OOM", "HOST_OOM", "HOST_OOM");
    assertThat(task(report, "hog").get("attempts").get(1).get("reservedMemoryBytes").asLong())
        .isGreaterThan(200L << 20);
    assertThat(outcomes(task(report, "calm"))).containsExactly("SUCCEEDED");
    assertThat(dir.resolve("hog/allocations/2")).as("one allocation was enough").doesNotExist();
  }

  @Test
  void anAllocationWhoseBerthDiesIsReportedAndTheResumeRunsWhatWasLeftInTheNext() throws Exception {
    Path file = spec(dir, "dies", """
        slurm: {mode: allocation, cpus: 1, memory: 1GiB, time: 10m, poll-max: 1s}
        groups:
          - name: g
            memory: 100MiB
            tasks:
              - {id: quick, command: ["true"]}
              - {id: slow, command: [sleep, "6"], after: [quick]}
        """);
    CompletableFuture<CliRunner> run =
        CompletableFuture.supplyAsync(() -> CliRunner.berth("run", "--no-progress", file.toString()));
    await("slow to start inside the allocation", Duration.ofSeconds(60),
        () -> Files.exists(dir.resolve("dies/g/slow/stdout.log")));
    String allocation = Files.readAllLines(dir.resolve("dies/allocations/1/berth-slurm-job.1")).get(0);

    // as the kernel's OOM killer would: the Berth inside dies at once, recording nothing more
    String workdir = dir.resolve("dies").toString();
    await("the Berth inside the allocation to be killed", Duration.ofSeconds(30), () ->
        ProcessHandle.allProcesses().filter(p -> {
          String line = commandLine(p);
          return line.contains("--inside-allocation") && line.contains(workdir);
        }).map(ProcessHandle::destroyForcibly).reduce(false, Boolean::logicalOr));
    CliRunner stopped = run.get(120, TimeUnit.SECONDS);

    assertThat(stopped.exitCode).as(stopped.out + stopped.err).isEqualTo(ExitCodes.TASKS_FAILED);
    assertThat(stopped.err).contains("allocation 1 ended with tasks left: Slurm job " + allocation + " FAILED")
        .contains("report: " + dir.resolve("dies/report.json")).contains("berth resume");
    assertThat(task(report(dir, "dies"), "quick").get("status").asText()).isEqualTo("SUCCEEDED");

    CliRunner resumed = CliRunner.berth("resume", "--no-progress", dir.resolve("dies").toString());

    assertThat(resumed.exitCode).as(resumed.out + resumed.err).isZero();
    assertThat(resumed.out).contains("allocation 2: Slurm job");
    assertThat(task(report(dir, "dies"), "slow").get("status").asText()).isEqualTo("SUCCEEDED");
  }

  /** A process's command line from /proc, which, unlike ProcessHandle.Info, is never cut short. */
  private static String commandLine(ProcessHandle p) {
    try {
      return new String(Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline")),
          java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
    } catch (java.io.IOException | RuntimeException e) {
      return ""; // ended meanwhile, or not ours to read
    }
  }

  private static int mostAtOnce(List<double[]> spans) {
    int most = 0;
    for (double[] s : spans) {
      int overlapping = 0;
      for (double[] t : spans) {
        if (t[0] <= s[0] && s[0] < t[1]) {
          overlapping++;
        }
      }
      most = Math.max(most, overlapping);
    }
    return most;
  }

  private static void stopController() throws Exception {
    long pid = Long.parseLong(Files.readString(CONTROLLER_PID).strip());
    ProcessHandle controller = ProcessHandle.of(pid).orElseThrow();
    controller.destroy();
    controller.onExit().get(60, TimeUnit.SECONDS);
  }

  /** Starts slurmctld again as the local cluster's start script does, keeping its state (no {@code -c}). */
  private static void startController() throws Exception {
    Process start = new ProcessBuilder("/usr/sbin/slurmctld").inheritIO().start();
    assertThat(start.waitFor(60, TimeUnit.SECONDS)).isTrue();
    await("slurmctld to answer", Duration.ofSeconds(60), () -> {
      try {
        Process ping = new ProcessBuilder("scontrol", "ping").redirectErrorStream(true).start();
        return ping.waitFor(30, TimeUnit.SECONDS) && new String(ping.getInputStream().readAllBytes()).contains("UP");
      } catch (IOException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    });
  }
}
