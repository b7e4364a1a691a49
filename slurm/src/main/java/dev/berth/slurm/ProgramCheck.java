package dev.berth.slurm;

import dev.berth.os.LaunchPreparation;
import dev.berth.spi.LaunchRequest;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds a missing program before its job is submitted, the way a local start does
 * ({@link LaunchPreparation#runnable}). This assumes the nodes have the same software as the
 * submitting machine.
 */
final class ProgramCheck {

  private ProgramCheck() {}

  /** Why the program cannot run, or empty when it was found. */
  static Optional<String> problem(LaunchRequest request) {
    if (LaunchPreparation.runnable(request)) {
      return Optional.empty();
    }
    String program = request.command().get(0);
    return Optional.of(program.indexOf('/') >= 0
        ? "no executable file " + request.workdir().toAbsolutePath().resolve(program)
        : "'" + program + "' was not found on the PATH");
  }

  /**
   * The Slurm commands Berth needs ({@code sbatch}, {@code squeue}, {@code sacct}, {@code scancel})
   * that are not on {@code path}; empty when this machine can submit and track jobs.
   */
  static List<String> missingSlurmCommands(String path) {
    return Stream.of("sbatch", "squeue", "sacct", "scancel").filter(p -> !LaunchPreparation.onPath(p, path)).toList();
  }
}
