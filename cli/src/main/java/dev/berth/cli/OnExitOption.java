package dev.berth.cli;

import dev.berth.core.model.SchedulerConfig;
import java.io.PrintWriter;
import java.util.List;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** {@code --on-exit ask|cancel|leave}, shared by {@code run} and {@code resume}: a setting of the session only. */
final class OnExitOption {

  private static final List<String> CHOICES = List.of("ask", "cancel", "leave");

  @Option(names = "--on-exit", paramLabel = "ask|cancel|leave",
      description = "On Slurm, what Ctrl-C does to submitted jobs: ask (on a terminal), cancel them, or leave them"
          + " running for berth resume. Overrides slurm.on-exit.")
  String onExit;

  /** Whether the choice is valid; when not, says why on {@code err}. */
  boolean valid(PrintWriter err) {
    if (onExit == null || CHOICES.contains(onExit)) {
      return true;
    }
    err.println("berth: --on-exit must be ask, cancel or leave, not " + onExit);
    return false;
  }

  /** The configuration with the choice applied, for {@link LocalRun#adjust}. */
  UnaryOperator<SchedulerConfig> adjust() {
    return c -> onExit == null ? c : c.toBuilder().slurm(c.slurm().with("on-exit", onExit)).build();
  }
}
