package dev.berth.cli;

import dev.berth.serve.RunActions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Retries for the dashboard: starts {@code berth retry --no-progress WORKDIR TASK...} as a process of
 * its own (this Berth's Java and classes), so a retry from the API is exactly a retry from the shell.
 * Its output goes to {@code .berth/retry.log} in the run's workdir.
 */
final class BerthRetry implements RunActions {

  @Override
  public void retry(Path workdir, List<String> tasks) throws IOException {
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "retry", "--no-progress", "--",
        workdir.toString()));
    argv.addAll(tasks);
    Path log = workdir.resolve(".berth").resolve("retry.log");
    Files.createDirectories(log.getParent());
    new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
  }
}
