package dev.berth.os;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Runs an external command to completion: the seam through which Berth runs {@code nvidia-smi} and
 * the Slurm commands, so tests can answer with recorded output or a scripted cluster. The real
 * implementation is {@link ProcessCommandRunner}.
 */
@FunctionalInterface
public interface CommandRunner {

  /**
   * Runs {@code argv} (no shell) with no input and waits at most {@code timeout}.
   *
   * @return what the command printed and how it ended; a command still running at the timeout is
   *     killed and reported with {@link Result#timedOut()}
   * @throws IOException when the command cannot be started, e.g. it is not on the PATH
   */
  Result run(List<String> argv, Duration timeout) throws IOException;

  /**
   * How a command ended.
   *
   * @param exitCode the exit code, or -1 when it was killed at the timeout
   * @param stdout what it printed on standard output
   * @param stderr what it printed on standard error
   * @param timedOut whether it was killed because it ran past the timeout
   */
  record Result(int exitCode, String stdout, String stderr, boolean timedOut) {

    /** Validates. */
    public Result {
      Objects.requireNonNull(stdout, "stdout");
      Objects.requireNonNull(stderr, "stderr");
    }

    /** A command that exited with {@code exitCode} after printing {@code stdout}. */
    public static Result exited(int exitCode, String stdout) {
      return new Result(exitCode, stdout, "", false);
    }

    /** Whether the command exited with 0. */
    public boolean succeeded() {
      return !timedOut && exitCode == 0;
    }
  }
}
