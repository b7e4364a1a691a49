package dev.berth.cli;

import static dev.berth.cli.SlurmRuns.await;
import static dev.berth.cli.SlurmRuns.awaitState;
import static dev.berth.cli.SlurmRuns.berthProcess;
import static dev.berth.cli.SlurmRuns.outcomes;
import static dev.berth.cli.SlurmRuns.squeue;
import static dev.berth.cli.SlurmRuns.task;
import static org.assertj.core.api.Assertions.assertThat;

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
 * Whole runs with {@code executor: slurm} against a real Slurm cluster: the quickstart, a dependency
 * graph with a failing task, an array, an out-of-memory retry, cancel, a resume after Berth was
 * killed, and a run packed inside an allocation. Skipped when no cluster answers here.
 */
class SlurmRunTest {

  private static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();

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

  private Path spec(String name, String body) throws IOException {
    return SlurmRuns.spec(dir, name, body);
  }

  /** A run of one task in group {@code g}, written as a YAML flow mapping. */
  private Path oneTask(String name, String task) throws IOException {
    return spec(name, "groups:\n  - name: g\n    memory: 100MiB\n    tasks:\n      - " + task + "\n");
  }

  /** A command that waits until the test creates {@code gate} (or its folder is gone), as a YAML flow sequence. */
  private String waitFor(Path gate) {
    return "[sh, -c, \"while [ -d " + dir + " ] && [ ! -e " + gate + " ]; do sleep 0.1; done\"]";
  }

  /** Waits until the first attempt of {@code task} was submitted and returns its job id. */
  private String submittedJob(String run, String task) throws IOException, InterruptedException {
    Path jobFile = dir.resolve(run + "/g/" + task + "/berth-slurm-job.1");
    await(task + " to be submitted", Duration.ofSeconds(60), () -> Files.exists(jobFile));
    return Files.readAllLines(jobFile).get(0);
  }

  private JsonNode report(String run) throws IOException {
    return SlurmRuns.report(dir, run);
  }

  @Test
  void theQuickstartRunsOnSlurmWithTheSameResults() throws IOException {
    String text = Files.readString(EXAMPLES.resolve("quickstart.yaml"))
        .replace("{spec_dir}", EXAMPLES.toString())
        .replace("workdir: berth-out/quickstart", "workdir: " + dir.resolve("quickstart"));
    Path file = dir.resolve("quickstart.yaml");
    Files.writeString(file, text);

    CliRunner run = CliRunner.berth("run", "--no-progress", "--executor", "slurm", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode report = report("quickstart");
    assertThat(report.get("status").asText()).isEqualTo("SUCCEEDED");
    JsonNode attempt = task(report, "train-0.1-1").get("attempts").get(0);
    assertThat(attempt.get("device").asText()).isEqualTo("cluster");
    assertThat(attempt.get("clusterJob").asText()).as("the report names each attempt's Slurm job")
        .isEqualTo(Files.readAllLines(dir.resolve("quickstart/train/train-0.1-1/berth-slurm-job.1")).get(0));
    assertThat(dir.resolve("quickstart/train/train-0.1-1/result.json")).exists();
  }

  @Test
  void aDependencyGraphWithAFailingTaskKeepsBerthsSemantics() throws IOException {
    Path file = spec("dag", """
        groups:
          - name: g
            memory: 100MiB
            tasks:
              - {id: ok, command: [sh, -c, "sleep 2"]}
              - {id: bad, command: [sh, -c, "sleep 2; exit 3"]}
              - {id: after-ok, command: ["true"], after: [ok]}
              - {id: after-bad, command: ["true"], after: [bad]}
              - {id: on-failure, command: ["true"], after: {tasks: [bad], success: false, failure: true}}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(ExitCodes.TASKS_FAILED);
    JsonNode report = report("dag");
    assertThat(task(report, "ok").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "bad").get("status").asText()).isEqualTo("FAILED");
    assertThat(task(report, "after-ok").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "after-bad").get("status").asText()).isEqualTo("UNREACHABLE");
    assertThat(task(report, "on-failure").get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(dir.resolve("dag/g/after-bad/berth-slurm-job.1"))
        .as("after-bad was handed to Slurm with --dependency before bad ended").exists();
  }

  @Test
  void matrixTasksGoToSlurmAsOneArray() throws IOException {
    Path file = spec("array", "config: {scheduler: {max-process: 4}}\nslurm: {workdir-root: " + dir.resolve("shared")
        + "}\n" + """
        groups:
          - name: g
            memory: 100MiB
            tasks:
              - {id: "sq-{i}", matrix: {i: [1, 2, 3, 4]}, command: [sh, -c, "echo $(( {i} * {i} ))"]}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    List<String> jobs = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      Path folder = dir.resolve("shared/array/g/sq-" + i); // under slurm.workdir-root, not the run's workdir
      jobs.add(Files.readAllLines(folder.resolve("berth-slurm-job.1")).get(0));
      assertThat(folder.resolve("stdout.log")).content().contains(Integer.toString(i * i));
    }
    assertThat(dir.resolve("array/report.json")).exists();
    String array = jobs.get(0).substring(0, jobs.get(0).indexOf('_'));
    assertThat(jobs).containsExactly(array + "_0", array + "_1", array + "_2", array + "_3");
  }

  @Test
  void aGroupsMaxJobsKeepsItsArraysWithinItsRoom() throws IOException {
    Path file = spec("capped", "config: {scheduler: {max-process: 10}}\n" + """
        groups:
          - name: g
            memory: 100MiB
            slurm: {max-jobs: 2}
            tasks:
              - {id: "sq-{i}", matrix: {i: [1, 2, 3, 4, 5]}, command: [sh, -c, "sleep 1; echo $(( {i} * {i} ))"]}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    java.util.Map<String, Integer> elements = new java.util.TreeMap<>();
    for (int i = 1; i <= 5; i++) {
      String job = Files.readAllLines(dir.resolve("capped/g/sq-" + i + "/berth-slurm-job.1")).get(0);
      elements.merge(job.contains("_") ? job.substring(0, job.indexOf('_')) : job, 1, Integer::sum);
    }
    assertThat(elements.values()).as("submissions: %s", elements).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2));
    assertThat(elements).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void aShortSweepsReportsShowSlurmsTimesNodesAndQueueWait() throws IOException {
    // All three go to Slurm at once, each asking for every CPU of the node: Slurm runs them one at a time.
    int cpus = Runtime.getRuntime().availableProcessors();
    Path file = spec("timed", "config: {scheduler: {max-process: 3}}\n" + """
        groups:
          - name: g
            memory: 100MiB
            cpus: %d
            tasks:
              - {id: "s-{i}", matrix: {i: [1, 2, 3]}, command: [sh, -c, "sleep 2"]}
        """.formatted(cpus));
    Instant before = Instant.now();

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    Instant after = Instant.now();
    JsonNode report = report("timed");
    long queued = 0;
    for (int i = 1; i <= 3; i++) {
      JsonNode attempt = task(report, "s-" + i).get("attempts").get(0);
      JsonNode cluster = attempt.get("cluster");
      assertThat(cluster).as("s-%d has Slurm's accounting", i).isNotNull();
      assertThat(cluster.get("jobId").asText())
          .isEqualTo(Files.readAllLines(dir.resolve("timed/g/s-" + i + "/berth-slurm-job.1")).get(0));
      assertThat(cluster.get("state").asText()).isEqualTo("COMPLETED");
      assertThat(cluster.get("nodes").asText()).isNotBlank();
      Instant submitted = Instant.parse(cluster.get("submittedAt").asText());
      Instant started = Instant.parse(attempt.get("startedAt").asText());
      Instant finished = Instant.parse(attempt.get("finishedAt").asText());
      assertThat(started).as("Slurm's start").isEqualTo(Instant.parse(cluster.get("startedAt").asText()))
          .isAfterOrEqualTo(submitted);
      assertThat(finished).isEqualTo(Instant.parse(cluster.get("endedAt").asText()));
      assertThat(Duration.between(started, finished)).as("a 2 s job's run, in Slurm's whole seconds")
          .isBetween(Duration.ofSeconds(1), Duration.ofSeconds(4));
      assertThat(Duration.ofMillis(cluster.get("queueWaitMs").asLong())).isEqualTo(Duration.between(submitted, started));
      assertThat(submitted).isBetween(before.minusSeconds(1), after);
      queued += cluster.get("queueWaitMs").asLong();
    }
    assertThat(queued).as("one at a time: the later elements waited in the queue").isGreaterThanOrEqualTo(2_000);
    assertThat(dir.resolve("timed/results.csv")).content().startsWith(
        "id,group,status,attempts,device,duration_ms,job_id,job_state,nodes,queue_wait_ms,max_rss_bytes");
    assertThat(dir.resolve("timed/report.md")).content().contains("## Slurm jobs");
  }

  @Test
  void gpuRequestsBecomeGresAndSlurmChoosesTheGpu() throws IOException, InterruptedException {
    Path file = spec("gres", """
        slurm: {gpu-memory-gres: "gpumem:1MiB"}
        groups:
          - name: g
            memory: 100MiB
            tasks:
              - {id: whole, gpus: 1, command: [sh, -c, "echo visible=$CUDA_VISIBLE_DEVICES"]}
              - {id: share, gpu-memory: 8GiB, command: [sh, -c, "echo share=$BERTH_GPU_MEMORY_BYTES"]}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(dir.resolve("gres/g/whole/stdout.log")).as("Slurm, not Berth, set CUDA_VISIBLE_DEVICES")
        .content().containsPattern("visible=[01]\\n");
    assertThat(dir.resolve("gres/g/share/stdout.log")).content().contains("share=" + (8L << 30));
    String share = Files.readAllLines(dir.resolve("gres/g/share/berth-slurm-job.1")).get(0);
    await("sacct to know the job", Duration.ofSeconds(30), () -> requested(share).contains("gres/gpumem=8192"));
  }

  /** What the job asked for, as sacct's ReqTRES has it, e.g. {@code cpu=1,gres/gpumem=8192,mem=100M}. */
  private static String requested(String job) {
    try {
      Process p = new ProcessBuilder("sacct", "-X", "-n", "-P", "--format=ReqTRES", "-j", job)
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes());
      p.waitFor(30, TimeUnit.SECONDS);
      return out;
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  @Test
  void aTaskKilledAtItsMemoryLimitIsRetriedWithMoreMemory() throws IOException {
    Path file = spec("oom", """
        config: {scheduler: {oom-growth: 6}}
        groups:
          - name: g
            tasks:
              - id: hungry
                memory: 100MiB
                command: [python3, -c, "import time; x = bytearray(400 * 2**20); time.sleep(4)"]
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode hungry = task(report("oom"), "hungry");
    assertThat(outcomes(hungry)).containsExactly("HOST_OOM", "SUCCEEDED");
    assertThat(hungry.get("attempts").get(1).get("reservedMemoryBytes").asLong()).isEqualTo(600L << 20);
  }

  @Test
  void berthCancelEndsTheSubmittedJobs() throws Exception {
    Path file = oneTask("cancel", "{id: long, command: [sleep, \"300\"]}");
    CompletableFuture<CliRunner> run =
        CompletableFuture.supplyAsync(() -> CliRunner.berth("run", "--no-progress", file.toString()));
    String job = submittedJob("cancel", "long");
    CliRunner status = CliRunner.berth("status", dir.resolve("cancel").toString());
    assertThat(status.out).as("status shows the job next to Berth's state")
        .containsPattern("long +RUNNING +job " + job + " (PENDING|RUNNING|CONFIGURING)");

    CliRunner cancel = CliRunner.berth("cancel", dir.resolve("cancel").toString());

    assertThat(cancel.exitCode).as(cancel.out + cancel.err).isZero();
    CliRunner finished = run.get(120, TimeUnit.SECONDS);
    assertThat(finished.exitCode).isEqualTo(ExitCodes.TASKS_FAILED);
    assertThat(task(report("cancel"), "long").get("status").asText()).isEqualTo("CANCELLED");
    assertThat(squeue(job)).isIn("CANCELLED", "COMPLETING", "");
  }

  @Test
  void stoppedWithOnExitLeaveBerthLeavesTheJobsRunningForALaterResume() throws Exception {
    Path gate = dir.resolve("gate"); // the job runs on until the stopped Berth is seen to have left it
    Path file = oneTask("leave", "{id: a, command: " + waitFor(gate) + "}");
    Path log = dir.resolve("leave.log");
    Process berth = berthProcess(log, "run", "--no-progress", "--on-exit", "leave", file.toString());
    String job = submittedJob("leave", "a");

    berth.destroy(); // SIGTERM, which runs Berth's shutdown hook as Ctrl-C does
    assertThat(berth.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(Files.readString(log)).contains("left running");
    assertThat(squeue(job)).isIn("RUNNING", "PENDING");
    Files.createFile(gate);
    CliRunner resumed = CliRunner.berth("resume", "--no-progress", dir.resolve("leave").toString());
    assertThat(resumed.exitCode).as(resumed.out + resumed.err).isZero();
    assertThat(outcomes(task(report("leave"), "a"))).containsExactly("SUCCEEDED");
  }

  @Test
  void withNoBerthRunningBerthCancelCancelsTheJobsItLeftAndResumeRecordsIt() throws Exception {
    Path file = oneTask("left", "{id: long, command: [sleep, \"300\"]}");
    Process berth = berthProcess(dir.resolve("left.log"), "run", "--no-progress", "--on-exit", "leave", file.toString());
    String job = submittedJob("left", "long");
    berth.destroy();
    assertThat(berth.waitFor(60, TimeUnit.SECONDS)).isTrue();

    CliRunner cancel = CliRunner.berth("cancel", dir.resolve("left").toString());

    assertThat(cancel.exitCode).as(cancel.out + cancel.err).isZero();
    assertThat(cancel.out).contains("cancelled its Slurm jobs " + job);
    awaitState(job, "CANCELLED", Duration.ofSeconds(60));
    CliRunner resumed = CliRunner.berth("resume", "--no-progress", dir.resolve("left").toString());
    assertThat(resumed.exitCode).isEqualTo(ExitCodes.TASKS_FAILED);
    assertThat(task(report("left"), "long").get("status").asText()).isEqualTo("CANCELLED");
  }

  @Test
  void aResumeAfterBerthWasKilledFindsTheJobsAgainInsteadOfSubmittingThemTwice() throws Exception {
    Path gate = dir.resolve("gate"); // a and b run on until the killed Berth is seen to have left them
    Path file = spec("resume", """
        groups:
          - name: g
            memory: 100MiB
            tasks:
              - {id: a, command: %s}
              - {id: b, command: %s}
              - {id: c, command: ["true"], after: [a, b]}
        """.formatted(waitFor(gate), waitFor(gate)));
    Process berth = berthProcess(dir.resolve("resume.log"), "run", "--no-progress", file.toString());
    Path cJob = dir.resolve("resume/g/c/berth-slurm-job.1");
    await("all three jobs to be submitted", Duration.ofSeconds(60), () -> Files.exists(cJob));
    berth.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    String aJob = Files.readAllLines(dir.resolve("resume/g/a/berth-slurm-job.1")).get(0);
    assertThat(squeue(aJob)).as("the jobs outlive the Berth that submitted them").isIn("RUNNING", "PENDING");
    Files.createFile(gate);
    String cJobId = Files.readAllLines(cJob).get(0);
    awaitState(cJobId, "COMPLETED", Duration.ofSeconds(90)); // c ran after a and b without any Berth

    CliRunner resumed = CliRunner.berth("resume", "--no-progress", dir.resolve("resume").toString());

    assertThat(resumed.exitCode).as(resumed.out + resumed.err).isZero();
    JsonNode report = report("resume");
    for (String id : List.of("a", "b", "c")) {
      assertThat(outcomes(task(report, id))).as(id + " ran once").containsExactly("SUCCEEDED");
    }
  }

  @Test
  void inAllocationModeBerthPacksTheTasksInsideOneAllocation() throws IOException {
    Path file = spec("packed", """
        gpus: sim:2x24GiB
        slurm: {mode: allocation, cpus: 2, time: 10m}
        groups:
          - name: g
            memory: 64MiB
            tasks:
              - {id: "fit-{i}", matrix: {i: [1, 2, 3, 4]}, gpu-memory: 10GiB, command: [sh, -c, "echo $CUDA_VISIBLE_DEVICES"]}
        """);

    CliRunner run = CliRunner.berth("run", "--no-progress", file.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertThat(run.out).contains("allocation 1: Slurm job");
    JsonNode report = report("packed");
    assertThat(report.get("status").asText()).isEqualTo("SUCCEEDED");
    assertThat(task(report, "fit-1").get("attempts").get(0).get("device").asText()).startsWith("cuda:");
    assertThat(dir.resolve("packed/allocations/1/berth-slurm-job.1")).exists();
  }
}
