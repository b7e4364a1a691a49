package dev.berth.cli;

import dev.berth.core.model.RunSpec;
import dev.berth.slurm.JobsOnExit;
import dev.berth.slurm.SlurmKeys;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** {@code --on-exit ask|cancel|leave}, shared by {@code run} and {@code resume}: a setting of the session only. */
final class OnExitOption {


  @Option(names = "--on-exit", paramLabel = "ask|cancel|leave",
      description = "On Slurm, what Ctrl-C does to submitted jobs: ask (on a terminal), cancel them, or leave them"
          + " running for berth resume. Overrides slurm.on-exit.")
  String onExit;

  /** Whether the choice is valid; when not, says why on {@code err}. */
  boolean valid(PrintWriter err) {
    if (onExit == null || Arrays.stream(JobsOnExit.values()).anyMatch(c -> c.toString().equals(onExit))) {
      return true;
    }
    err.println("berth: --on-exit must be ask, cancel or leave, not " + onExit);
    return false;
  }

  /** The run with the choice applied, for {@link LocalRun#adjust}. */
  UnaryOperator<RunSpec> adjust() {
    if (onExit == null) {
      return UnaryOperator.identity();
    }
    JobsOnExit choice = JobsOnExit.valueOf(onExit.toUpperCase(Locale.ROOT));
    return run -> SlurmKeys.TABLE.into(run, SlurmKeys.TABLE.of(run).toBuilder().onExit(choice).build());
  }
}
