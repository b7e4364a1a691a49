package dev.berth.slurm;

import dev.berth.spi.LaunchRequest;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds a missing program before its job is submitted, the way a local start would: a name with a
 * slash is a file (relative to the working directory), any other name is looked up on the PATH the
 * job will have. This assumes the nodes have the same software as the submitting machine.
 */
final class ProgramCheck {

  private ProgramCheck() {}

  /** Why the program cannot run, or empty when it was found. */
  static Optional<String> problem(LaunchRequest request) {
    String program = request.command().get(0);
    if (program.indexOf('/') >= 0) {
      Path file = request.workdir().toAbsolutePath().resolve(program);
      return runnable(file) ? Optional.empty() : Optional.of("no executable file " + file);
    }
    return onPath(program, request.env().getOrDefault("PATH", System.getenv().getOrDefault("PATH", "")))
        ? Optional.empty() : Optional.of("'" + program + "' was not found on the PATH");
  }

  /**
   * The Slurm commands Berth needs ({@code sbatch}, {@code squeue}, {@code sacct}, {@code scancel})
   * that are not on {@code path}; empty when this machine can submit and track jobs.
   */
  static java.util.List<String> missingSlurmCommands(String path) {
    return java.util.stream.Stream.of("sbatch", "squeue", "sacct", "scancel").filter(p -> !onPath(p, path)).toList();
  }

  private static boolean onPath(String program, String path) {
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty() && runnable(Path.of(folder).resolve(program))) {
        return true;
      }
    }
    return false;
  }

  private static boolean runnable(Path file) {
    return Files.isRegularFile(file) && Files.isExecutable(file);
  }
}
