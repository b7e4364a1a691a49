package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link WorkerMain} as a real process, the way users run it by hand, on the class path Berth
 * gives a Java task: {@link WorkerClasspath#entries()} and the task's own classes, nothing else.
 */
class WorkerMainProcessTest {

  @TempDir Path dir;

  @Test
  void theMainClassPrintsTheResultAndExitsWithTheWorkersCode() throws Exception {
    assertThat(run(Tasks.Happy.class.getName())).isZero();
    assertThat(Files.readString(dir.resolve("out"))).isEqualTo("{\"device\":\"cpu\",\"sum\":6,\"lr\":null,\"best\":null}\n");

    assertThat(run(Tasks.Failing.class.getName())).isEqualTo(3);
    assertThat(run("com.example.Missing")).isEqualTo(2);
    assertThat(Files.readString(dir.resolve("err"))).contains("com.example.Missing was not found on the class path");
  }

  @Test
  void theWorkersClasspathNamesTheTaskApiAndTheProtocolOnceEach() {
    assertThat(WorkerClasspath.entries()).hasSize(2).doesNotHaveDuplicates()
        .allSatisfy(entry -> assertThat(Path.of(entry)).exists());
  }

  private static List<String> classpath() throws Exception {
    List<String> entries = new ArrayList<>(WorkerClasspath.entries());
    entries.add(Path.of(Tasks.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    return entries;
  }

  private int run(String className) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, classpath()), WorkerMain.class.getName(), className)
        .redirectOutput(dir.resolve("out").toFile())
        .redirectError(dir.resolve("err").toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("BERTH_"));
    Process process = builder.start();
    try {
      assertThat(process.waitFor(FakeBerth.WAIT_SECONDS, TimeUnit.SECONDS)).as("the worker exited").isTrue();
      return process.exitValue();
    } finally {
      process.destroyForcibly();
    }
  }
}
