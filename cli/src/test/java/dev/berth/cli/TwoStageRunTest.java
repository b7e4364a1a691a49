package dev.berth.cli;

import static dev.berth.cli.RunFiles.json;
import static dev.berth.cli.RunFiles.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-stage tasks end to end: a real Python script using the shipped helper and a real child JVM
 * running a Java task, each loading on the CPU, then training on the device Berth hands it,
 * surviving a GPU out-of-memory error by waiting for a device again with the process kept.
 */
class TwoStageRunTest {

  private static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path dir;

  @Test
  void aPythonTaskTrainsAgainOnAGpuAfterAnOutOfMemoryWithoutReloading() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")) || Files.isExecutable(Path.of("/usr/local/bin/python3")),
        "python3 is needed for this test");
    Path spec = dir.resolve("py.yaml");
    Files.writeString(spec, """
        name: py
        workdir: %s
        gpus: sim:2x24GiB
        config:
          remain-limit: {memory: 1MiB, cuda-memory: 0}
          utilization-limit: {cpu: 1.0, cuda-memory: 1.0}
        groups:
          - name: g
            memory: 64MiB
            gpu-memory: 2GiB
            two-stage: true
            tasks:
              - id: fit
                env: {BERTH_DEMO_OOM_ONCE: "1", PYTHONPATH: "%s"}
                command: [python3, "%s"]
        """.formatted(dir.resolve("out"), REPO.resolve("examples/python"),
            REPO.resolve("examples/python/two_stage_demo.py")));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    JsonNode task = report(dir).get("groups").get(0).get("tasks").get(0);
    assertThat(task.get("attempts")).as("one process: the OOM did not restart it").hasSize(1);
    JsonNode result = json(dir.resolve("out/g/fit/result.json"));
    assertThat(result.get("trains").asInt()).as("trained twice in the same process").isEqualTo(2);
    assertThat(result.get("device").asText()).startsWith("cuda:");
    assertThat(result.get("slope").asDouble()).isBetween(2.9, 3.1);
    assertThat(json(dir.resolve("out/g/fit/items.json")).get("samples").asInt()).isEqualTo(2000);
    String trainedOn = task.get("attempts").get(0).get("device").asText();
    assertThat(trainedOn).isEqualTo(result.get("device").asText());
    CliRunner status = CliRunner.berth("status", "--json", dir.resolve("out").toString());
    assertThat(new ObjectMapper().readTree(status.out).get("tasks").get(0).get("device").asText())
        .as("status names the device the task trained on, as the report does").isEqualTo(trainedOn);
    assertThat(CliRunner.berth("status", dir.resolve("out").toString()).out).contains(trainedOn);
  }

  @Test
  void aPythonTaskWhoseTrainRetryAsksMoreThanItsDeviceHasBesideItsOldShareTrainsAgainWithTheHostLedgerOn()
      throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")) || Files.isExecutable(Path.of("/usr/local/bin/python3")),
        "python3 is needed for this test");
    Path spec = dir.resolve("oom.yaml");
    Files.writeString(spec, """
        name: oom
        workdir: %s
        gpus: sim:2x24GiB
        config: {remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: g
            two-stage: true
            memory: 64MiB
            gpu-memory: 10GiB
            env: {PYTHONPATH: "%s", BERTH_DEMO_OOM_ONCE: "1"}
            tasks: [{id: fit, command: [python3, "%s"]}]
        """.formatted(dir.resolve("out"), REPO.resolve("examples/python"),
            REPO.resolve("examples/python/two_stage_demo.py")));

    // 15 GiB after the out-of-memory error, of the 19.2 GiB utilization-limit.cuda-memory leaves
    BerthProcess run = BerthProcess.start(dir, java.util.Map.of("BERTH_HOST_DIR", dir.resolve("host").toString()),
        "run", "--no-progress", spec.toString());

    assertThat(run.await(60)).as(run.output()).isZero();
    assertThat(json(dir.resolve("out/g/fit/result.json")).get("trains").asInt()).isEqualTo(2);
  }

  @Test
  void aPythonTaskThatExitsZeroDuringTrainingWithoutAResultFailsAndTheRunEndsWithItsReport() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/python3")) || Files.isExecutable(Path.of("/usr/local/bin/python3")),
        "python3 is needed for this test");
    Path script = dir.resolve("quits.py");
    Files.writeString(script, """
        import os
        from berth_task import run_task

        def load(ctx):
            return 1

        def train(state, device, ctx):
            os._exit(0)  # gone in the middle of training, without a result

        run_task(load, train)
        """);
    Path spec = dir.resolve("quits.yaml");
    Files.writeString(spec, """
        name: quits
        workdir: %s
        config:
          remain-limit: {memory: 1MiB}
          utilization-limit: {cpu: 1.0}
        groups:
          - name: g
            memory: 64MiB
            tasks:
              - id: fit
                two-stage: true
                env: {PYTHONPATH: "%s"}
                command: [python3, "%s"]
              - id: plain
                command: [python3, -c, "print('fine')"]
        """.formatted(dir.resolve("out"), REPO.resolve("examples/python"), script));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isEqualTo(ExitCodes.TASKS_FAILED);
    JsonNode tasks = report(dir).get("groups").get(0).get("tasks");
    assertThat(tasks.get(0).get("status").asText()).isEqualTo("FAILED");
    assertThat(tasks.get(0).get("error").asText()).isEqualTo("exited 0 during training without a result");
    assertThat(tasks.get(0).get("attempts").get(0).get("stage").asText()).isEqualTo("TRAIN");
    assertThat(tasks.get(1).get("status").asText()).isEqualTo("SUCCEEDED");
  }

  @Test
  void aJavaTaskRunsInAChildJvmAndItsResultIsKept() throws Exception {
    Path src = dir.resolve("src/demo/Square.java");
    Files.createDirectories(src.getParent());
    Files.writeString(src, """
        package demo;
        import dev.berth.task.*;
        import java.util.Map;
        public class Square implements BerthTask {
          private int n;
          @Override public void load(TaskContext ctx) { n = Integer.parseInt(ctx.params().getOrDefault("n", "7")); }
          @Override public Map<String, Object> train(Device device, TaskContext ctx) {
            ctx.setItem("seen", n);
            return Map.of("square", n * n, "device", device.name());
          }
        }
        """);
    Path classes = dir.resolve("classes");
    Files.createDirectories(classes);
    int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
        "-cp", System.getProperty("java.class.path"), src.toString());
    assertThat(compiled).isZero();
    Path spec = dir.resolve("java.yaml");
    Files.writeString(spec, """
        name: j
        workdir: %s
        config:
          remain-limit: {memory: 1MiB}
          utilization-limit: {cpu: 1.0}
        groups:
          - name: g
            tasks:
              - id: "sq-{n}"
                matrix: {n: [3, 4]}
                java: demo.Square
                classpath: ["%s"]
                jvm-args: [-Xmx64m]
                memory: 128MiB
        """.formatted(dir.resolve("out"), classes));

    CliRunner run = CliRunner.berth("run", spec.toString());

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    for (int n : List.of(3, 4)) {
      JsonNode result = json(dir.resolve("out/g/sq-" + n + "/result.json"));
      assertThat(result.get("square").asInt()).isEqualTo(n * n);
      assertThat(result.get("device").asText()).isEqualTo("cpu");
    }
  }
}
