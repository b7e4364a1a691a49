package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.report.Objective;
import dev.berth.spec.SpecLoader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecEquivalenceTest {

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(SpecEquivalenceTest.class.getResource(name).toURI());
  }

  @Test
  void theBuildersMakeTheSameRunAsAYamlSpecWithEveryKey() throws Exception {
    Path spec = resource("/specs/everything.yaml");
    String dir = spec.getParent().toAbsolutePath().normalize().toString();
    RunSpec fromYaml = SpecLoader.load(spec, null, null);

    Map<String, List<?>> matrix = new LinkedHashMap<>();
    matrix.put("lr", List.of(0.1, 0.01));
    matrix.put("seed", List.of(1, 2));
    RunSpec fromJava = Runs.named("everything")
        .workdir("out/everything")
        .gpus("sim:2x24GiB")
        .groupsInParallel(true)
        .objective(Objective.max("val_acc"))
        .config(SchedulerConfig.builder()
            .maxProcess(4).defaultMemoryBytes(512L << 20).interval(Duration.ofSeconds(2)).placement("most-free")
            .defaultCudaMemoryBytes(1L << 30).cpuUtilizationLimit(0.9).memoryUtilizationLimit(0.85)
            .remainMemoryBytes(1_000_000_000L).build())
        .group(Groups.builder("prepare").memory("256MiB").env("STAGE", "prepare")
            .task(Tasks.command("make-data", "python3", dir + "/make_data.py", "--out", "data")
                .env("SEED", "1").priority(5).retries(2).retryDelay(Duration.ofMillis(500)).retryBackoff(3)
                .retryDelayMax(Duration.ofSeconds(10)))
            .task(Tasks.command("make-index", "sh", "-c", "echo index > index.txt")
                .cpus(0.5).timeout(Duration.ofMinutes(1)).queueTimeout(Duration.ofSeconds(30))))
        .group(Groups.builder("train").gpuMemory("2GiB").cpus(2).after("group:prepare")
            .matrix(Tasks.template("train-{lr}-{seed}", "python3", dir + "/train.py", "--lr", "{lr}", "--seed", "{seed}")
                .env("LR", "{lr}").targets(1, 0).placement("round-robin").blacklist(false), matrix)
            .task(Tasks.command("pinned", "python3", dir + "/train.py", "--pinned").device("cuda:1").memory("1.5GiB"))
            .task(Tasks.command("whole", "python3", dir + "/train.py", "--whole").gpuMemoryBytes(0).gpus(2)))
        .group(Groups.builder("report")
            .task(Tasks.command("summary", "python3", dir + "/summary.py")
                .after(DependsOn.on("train-*", "pinned").any().whenEnded()).follow("whole").device("cpu"))
            .task(Tasks.command("cleanup", "sh", "-c", "rm -rf data").after("summary", "make-data")
                .gpuMemoryBytes(0).memoryBytes(0)))
        .group(Groups.builder("java").twoStage(true)
            .task(Tasks.java("java-train", "com.example.TrainTask", List.of(dir + "/lib/tasks.jar"), List.of("-Xmx1g")))
            .task(Tasks.command("protocol-script", "python3", dir + "/two_stage.py"))
            .task(Tasks.java("plain-java", "com.example.Other", List.of(), List.of()).twoStage(false)))
        .build();

    assertThat(fromJava).isEqualTo(fromYaml);
    assertThat(Plan.of(fromJava)).isEqualTo(Plan.of(fromYaml));
    assertThat(Plan.of(fromJava).render()).isEqualTo(Plan.of(fromYaml).render());
    assertThat(fromJava.tasks()).filteredOn(TaskSpec::twoStage).extracting(t -> t.id().value())
        .containsExactly("java-train", "protocol-script");
  }

  @Test
  void theQuickstartExampleHasTheSameRunAndPlanWhenBuiltInJava() throws Exception {
    Path spec = Path.of("..", "examples", "quickstart.yaml").toAbsolutePath().normalize();
    String dir = spec.getParent().toString();
    RunSpec fromYaml = SpecLoader.load(spec, null, null);

    Map<String, List<?>> matrix = new LinkedHashMap<>();
    matrix.put("lr", List.of("0.1", "0.01"));
    matrix.put("seed", List.of(1, 2));
    RunSpec fromJava = Runs.named("quickstart")
        .workdir("berth-out/quickstart")
        .config(SchedulerConfig.builder().maxProcess(4).build())
        .group(Groups.builder("prepare").memory("256MiB")
            .task(Tasks.command("make-data", "python3", dir + "/quickstart/make_data.py", "--out", "data")))
        .group(Groups.builder("train").memory("256MiB")
            .matrix(Tasks.template("train-{lr}-{seed}", "python3", dir + "/quickstart/train.py", "--lr", "{lr}",
                "--seed", "{seed}").cpus(1), matrix))
        .build();

    assertThat(fromJava).isEqualTo(fromYaml);
    assertThat(Plan.of(fromJava).tasks()).extracting(Plan.Entry::id)
        .containsExactly("make-data", "train-0.1-1", "train-0.1-2", "train-0.01-1", "train-0.01-2");
    assertThat(Plan.of(fromJava)).isEqualTo(Plan.of(fromYaml));
  }
}
