package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The federated-averaging examples, examples/fedavg (Python) and examples/fedavg-java (Java), run
 * end to end: three rounds of four two-stage clients and one aggregate task each, with the
 * workdir moved into a temporary folder. Every round's aggregate leaves its result.json, and the
 * global model is no worse after the last round than after the first.
 */
class FedAvgExamplesTest {

  private static final Path REPO = Path.of("").toAbsolutePath().getParent();
  private static final int ROUNDS = 3;
  private static final int CLIENTS = 4;

  @TempDir Path dir;

  @Test
  void thePythonExampleImprovesTheGlobalModelRoundAfterRound() throws Exception {
    assumeTrue(Programs.onPath("python3"), "python3 is needed for this test");
    Path spec = copySpec(REPO.resolve("examples/fedavg"), "fedavg.yaml");

    CliRunner run = run(spec);

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertRoundsImprove();
  }

  @Test
  void thePoolExampleImprovesTheGlobalModelRoundAfterRoundInTwoWarmEngines() throws Exception {
    assumeTrue(Programs.onPath("python3"), "python3 is needed for this test");
    Path example = REPO.resolve("examples/fedavg");
    for (String module : List.of("fedavg_pool.py", "fedavg_lib.py")) {
      Files.copy(example.resolve(module), dir.resolve(module)); // a call's module is imported from the spec's folder
    }
    Path spec = copySpec(example, "fedavg-pool.yaml");

    CliRunner run = run(spec);

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertRoundsImprove();
    ObjectMapper json = new ObjectMapper();
    for (JsonNode group : json.readTree(dir.resolve("out/report.json").toFile()).get("groups")) {
      for (JsonNode task : group.get("tasks")) {
        assertThat(task.get("attempts").get(0).get("clusterJob").asText()).matches("fed/engine-[0-9]+");
      }
    }
  }

  @Test
  void theJavaExampleImprovesTheGlobalModelRoundAfterRound() throws Exception {
    Path example = REPO.resolve("examples/fedavg-java");
    List<String> args = new ArrayList<>(List.of("-d", dir.resolve("classes").toString(),
        "-cp", System.getProperty("java.class.path")));
    try (Stream<Path> sources = Files.list(example.resolve("src/fedavg"))) {
      sources.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> args.add(p.toString()));
    }
    Files.createDirectories(dir.resolve("classes"));
    assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, args.toArray(String[]::new)))
        .as("javac " + args).isZero();
    // The copied spec sits in the temporary folder, so its relative classpath [classes] finds the classes above.
    Path spec = copySpec(example, "fedavg-java.yaml");

    CliRunner run = run(spec);

    assertThat(run.exitCode).as(run.out + run.err).isZero();
    assertRoundsImprove();
  }

  /** The example's spec, copied into the temporary folder with {spec_dir} kept on the example and the workdir moved. */
  private Path copySpec(Path example, String name) throws IOException {
    String text = Files.readString(example.resolve(name))
        .replace("{spec_dir}", example.toString().replace(File.separatorChar, '/'));
    String moved = text.replaceFirst("(?m)^workdir:.*$",
        "workdir: '" + dir.resolve("out").toString().replace(File.separatorChar, '/') + "'");
    assertThat(moved).as("the spec names its workdir").isNotEqualTo(text);
    Path spec = dir.resolve(name);
    Files.writeString(spec, moved);
    return spec;
  }

  private static CliRunner run(Path spec) {
    // Tests share the machine with other processes: let the tiny tasks start whatever the load.
    return CliRunner.berth("run", "--no-progress", "--set", "utilization-limit.cpu=1.0",
        "--set", "remain-limit.memory=1MiB", spec.toString());
  }

  private void assertRoundsImprove() throws IOException {
    ObjectMapper json = new ObjectMapper();
    Path out = dir.resolve("out");
    assertThat(json.readTree(out.resolve("report.json").toFile()).get("status").asText()).isEqualTo("SUCCEEDED");
    List<Double> accuracy = new ArrayList<>();
    for (int k = 1; k <= ROUNDS; k++) {
      for (int client = 0; client < CLIENTS; client++) {
        assertThat(out.resolve("round-" + k + "-train/train-" + k + "-" + client + "/model.json")).isRegularFile();
      }
      Path aggregate = out.resolve("round-" + k + "-aggregate/aggregate-" + k);
      assertThat(aggregate.resolve("model.json")).isRegularFile();
      JsonNode result = json.readTree(aggregate.resolve("result.json").toFile());
      assertThat(result.get("round").asInt()).as("round of " + aggregate).isEqualTo(k);
      assertThat(result.get("clients").asInt()).isEqualTo(CLIENTS);
      double acc = result.get("acc").asDouble();
      assertThat(acc).as("accuracy of round " + k).isBetween(0.5, 1.0);
      assertThat(Files.readString(aggregate.resolve("stdout.log"))).contains("round " + k + ": test accuracy");
      accuracy.add(acc);
    }
    assertThat(accuracy.get(ROUNDS - 1)).as("accuracy per round " + accuracy).isGreaterThanOrEqualTo(accuracy.get(0));
  }
}
