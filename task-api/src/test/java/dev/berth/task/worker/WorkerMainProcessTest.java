package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@link WorkerMain} as a real process, the way users run it by hand. */
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

  private int run(String className) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName(), className)
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
