package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python package's own tests ({@code python/tests}) against the {@code berth} command built
 * here, so that {@code ./mvnw -B verify} runs them: with pytest where it is installed, else with
 * the tests' standard-library runner, which runs the same files. The command is this module's
 * classes and dependencies behind a two-line script, as the packaged launcher would start them.
 */
class PythonPackageTest {

  private static final Path REPO = Path.of("").toAbsolutePath().getParent();

  @TempDir Path dir;

  @Test
  void thePythonPackagePassesItsTestsAgainstTheCommandBuiltHere() throws Exception {
    assumeTrue(Programs.onPath("python3"), "python3 is needed for this test");
    Path launcher = dir.resolve("berth");
    Files.writeString(launcher, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
        + "' -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' "
        + Main.class.getName() + " \"$@\"\n");
    assertThat(launcher.toFile().setExecutable(true)).isTrue();
    boolean pytest = new ProcessBuilder("python3", "-c", "import pytest").start().waitFor() == 0;
    List<String> argv = pytest
        ? List.of("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests")
        : List.of("python3", "python/tests/run_tests.py");
    Path log = dir.resolve("python-tests.log");
    ProcessBuilder builder = new ProcessBuilder(argv).directory(REPO.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile());
    builder.environment().put("BERTH", launcher.toString());
    builder.environment().put("BERTH_HOST_DIR", dir.resolve("host").toString());
    builder.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    Process tests = builder.start();

    boolean ended = tests.waitFor(20, TimeUnit.MINUTES);
    if (!ended) {
      tests.descendants().forEach(ProcessHandle::destroyForcibly);
      tests.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(output); // the build log shows the Python tests' own lines and closing count

    assertThat(ended).as("the Python tests ended within 20 minutes:\n" + output).isTrue();
    assertThat(tests.exitValue()).as(String.join(" ", argv) + "\n" + output).isZero();
  }
}
