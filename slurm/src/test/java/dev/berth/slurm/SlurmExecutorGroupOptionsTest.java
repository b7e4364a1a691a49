package dev.berth.slurm;

import static dev.berth.slurm.Requests.FAST;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.spi.Execution;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchRequest;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A group's own {@code slurm:} options over the run's, as a workflow's per-rule resources: its jobs ask
 * for its partition, time, constraint and extra arguments, requeue and a signal before the limit; job
 * names tell squeue which run, task or group a job is.
 */
class SlurmExecutorGroupOptionsTest {

  @TempDir Path dir;

  private final FakeSlurm slurm = new FakeSlurm();
  private final FakeClock clock = new FakeClock();
  private final SlurmConfig runs = Requests.SLURM.toBuilder().set(SlurmKeys.PARTITION, "cpu")
      .set(SlurmKeys.ACCOUNT, "lab").set(SlurmKeys.EXTRA_ARGS, List.of("--mail-type=NONE")).build();
  private SlurmExecutor executor;

  @AfterEach
  void close() {
    if (executor != null) {
      executor.close();
    }
  }

  private static TaskSpec task(String id, Map<String, ?> options) {
    TaskSpec plain = TaskSpecs.task(id).memoryMiB(1024).build();
    return options.isEmpty() ? plain : plain.toBuilder().set(TaskKeys.SLURM, TaskKeys.SLURM.parse(options)).build();
  }

  private static TaskSpec matrixTask(String id, Map<String, ?> options) {
    return task(id, options).toBuilder().params(Map.of("i", id)).build();
  }

  private SlurmExecutor executor(RunSpec run) {
    return new SlurmExecutor(run.name(), runs, FAST.withArrayMaxRunning(4), slurm, SlurmExecutor.resourcesOf(run),
        JobOptions.of(run, runs), clock, clock);
  }

  private LaunchRequest request(String task, String arrayKey) {
    LaunchRequest r = Requests.reserved(dir, task, Requests.GIB);
    return arrayKey == null ? r : r.withArrayKey(arrayKey);
  }

  private List<String> sbatchOf(String jobName) {
    return slurm.calls("sbatch").stream().filter(argv -> argv.contains("--job-name=" + jobName)).findFirst()
        .orElseThrow(() -> new AssertionError("no sbatch named " + jobName + " in " + slurm.calls("sbatch")));
  }

  @Test
  void aGroupsSlurmOptionsOverrideTheRunsForItsJobsAlone() {
    RunSpec run = TaskSpecs.run("r")
        .group("prep", task("clean", Map.of()))
        .group("train", task("fit", Map.of("partition", "gpu", "time", "2h", "constraint", "a100&nvlink",
            "extra-args", List.of("--exclusive"))))
        .build();
    executor = executor(run);

    executor.launchAll(List.of(request("clean", null), request("fit", null)), r -> new Exits());

    assertThat(sbatchOf("r.clean")).contains("--partition=cpu", "--account=lab", "--mail-type=NONE")
        .noneMatch(a -> a.startsWith("--constraint") || a.startsWith("--time") || a.equals("--exclusive"));
    assertThat(sbatchOf("r.fit")).contains("--partition=gpu", "--account=lab", "--time=120",
        "--constraint=a100&nvlink", "--exclusive").doesNotContain("--partition=cpu", "--mail-type=NONE");
  }

  @Test
  void anArrayIsNamedAfterItsRunAndGroupAndNamesEachElementsTaskInAFileItsCommentPointsTo() throws Exception {
    RunSpec run = TaskSpecs.run("r").group("sweep", matrixTask("m0", Map.of()), matrixTask("m1", Map.of())).build();
    executor = executor(run);

    List<Launch> launches = executor.launchAll(List.of(request("m0", "sweep.i"), request("m1", "sweep.i")),
        r -> new Exits());

    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .containsExactly("100_0", "100_1");
    Path tasks = SlurmExecutor.arrayFolder(request("m0", null)).resolve("tasks");
    assertThat(sbatchOf("r.sweep")).contains("--comment=task of each element: " + tasks);
    assertThat(Files.readString(tasks)).isEqualTo("0 m0\n1 m1\n");
  }

  @Test
  void aGroupsMaxJobsCapsWhatCoreSubmitsAndIsNoSbatchOptionSoItsTasksStillShareAnArray() {
    Map<String, ?> capped = Map.of("max-jobs", "2", "partition", "gpu");
    RunSpec run = TaskSpecs.run("r").group("sweep", matrixTask("m0", capped), matrixTask("m1", capped),
        matrixTask("m2", capped)).build();
    executor = executor(run);

    List<Launch> launches = executor.launchAll(List.of(request("m0", "sweep.i"), request("m1", "sweep.i")),
        r -> new Exits());

    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .containsExactly("100_0", "100_1");
    assertThat(sbatchOf("r.sweep")).contains("--partition=gpu", "--array=0-1%4")
        .noneMatch(a -> a.contains("max-jobs"));
  }

  @Test
  void matrixTasksOfOneKeyWithDifferentOptionsAreNotOneArray() {
    RunSpec run = TaskSpecs.run("r").group("sweep", matrixTask("m0", Map.of()),
        matrixTask("m1", Map.of("qos", "long")), matrixTask("m2", Map.of())).build();
    executor = executor(run);

    List<Launch> launches = executor.launchAll(
        List.of(request("m0", "sweep.i"), request("m1", "sweep.i"), request("m2", "sweep.i")), r -> new Exits());

    assertThat(launches).extracting(l -> l.execution().flatMap(Execution::clusterId).orElseThrow())
        .containsExactly("100_0", "101", "100_1");
    assertThat(sbatchOf("r.m1")).contains("--qos=long");
  }

  @Test
  void requeueAndASignalBeforeTheLimitAreAskedForAndTheScriptPassesTheSignalOnToTheTask() throws Exception {
    RunSpec run = TaskSpecs.run("r").group("train", task("fit", Map.of("requeue", "true", "signal", "5m"))).build();
    executor = executor(run);

    executor.launchAll(List.of(request("fit", null)), r -> new Exits());

    assertThat(sbatchOf("r.fit")).contains("--requeue", "--signal=B:USR1@300");
    assertThat(BatchScript.scriptFile(request("fit", null))).content()
        .contains("trap '[ -n \"$berth_child\" ] && kill -USR1 \"$berth_child\" 2>/dev/null' USR1", ") &\n");
  }
}
