package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compiles examples/java with this module's class path and runs both programs, so they cannot rot. */
class ExamplesTest {

  private static final Path EXAMPLES = Path.of("..", "examples", "java").toAbsolutePath().normalize();
  private static final Path SCRIPTS = EXAMPLES.resolve("scripts");

  @TempDir static Path classes;
  private static URLClassLoader loader;

  @TempDir Path dir;

  @BeforeAll
  static void compileTheExamples() throws IOException {
    List<String> sources;
    try (Stream<Path> files = Files.walk(EXAMPLES.resolve("src"))) {
      sources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toString).toList();
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
    List<String> args = new java.util.ArrayList<>(List.of(
        "-d", classes.toString(), "-cp", System.getProperty("java.class.path"), "--release", "17", "-Xlint:all", "-Werror"));
    args.addAll(sources);
    int code = javac.run(null, errors, errors, args.toArray(String[]::new));
    assertThat(code).as("the examples compile without warnings:%n%s", errors).isZero();
    loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, ExamplesTest.class.getClassLoader());
  }

  /**
   * The example's session in {@code workdir}, started whatever else keeps the CPUs busy: the test is
   * about the example, not about waiting for a loaded machine to calm down.
   */
  private static BerthOptions.Builder session(Path workdir) {
    return BerthOptions.builder().workdir(workdir).set("utilization-limit.cpu", 1.0);
  }

  private static Method method(String className, String name, Class<?>... types) throws Exception {
    return loader.loadClass("dev.berth.examples." + className).getMethod(name, types);
  }

  @Test
  void theFederatedAveragingExampleImprovesTheAggregateOverTheRounds() throws Exception {
    Method run = method("FedAvgRounds", "run", Path.class, BerthOptions.Builder.class, int.class, int.class);

    List<?> accuracy = (List<?>) run.invoke(null, SCRIPTS, session(dir.resolve("fedavg")), 3, 3);

    assertThat(accuracy).hasSize(3);
    assertThat((Double) accuracy.get(1)).isGreaterThan((Double) accuracy.get(0));
    assertThat((Double) accuracy.get(2)).isGreaterThan((Double) accuracy.get(1)).isGreaterThan(0.75);
    Path run3 = dir.resolve("fedavg");
    assertThat(run3.resolve("train-r2").resolve("r2-client-0").resolve("berth-deps.json")).exists();
    assertThat(Files.readString(run3.resolve(Berth.TASKS_GROUP).resolve("r3-aggregate").resolve("result.json")))
        .contains("\"clients\": 3");
    assertThat(run3.resolve("report.html")).exists();
  }

  @Test
  void theTuneExampleFindsTheLearningRateAndBatchSizeWithTheLowestLoss() throws Exception {
    Method run = method("TuneLearningRate", "run", Path.class, BerthOptions.Builder.class);

    TuneResult result = (TuneResult) run.invoke(null, SCRIPTS, session(dir.resolve("tune")));

    assertThat(result.bestOption()).contains(Map.of("lr", 0.03, "batch", 32));
    assertThat(result.trials()).hasSize(12);
    assertThat(result.table().title()).isEqualTo("Sweep: best val_loss first");
    assertThat(Files.readString(dir.resolve("tune").resolve("report.md"))).contains("Sweep: best val_loss first");
  }
}
