package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.core.model.RunSpec;
import dev.berth.session.SessionOptions;
import dev.berth.spi.JobsOnExit;
import java.util.Locale;
import java.util.function.UnaryOperator;

/** {@code --on-exit ask|cancel|leave}, shared by {@code run} and {@code resume}: a setting of the session only. */
final class OnExitOption {

  static final Option ON_EXIT = Option.value("--on-exit", "ask|cancel|leave",
      "On Slurm, what Ctrl-C does to submitted jobs: ask (on a terminal), cancel them, or leave them"
          + " running for berth resume. Overrides slurm.on-exit.");

  private final String onExit;

  /**
   * The choice on the command line, null when none (slurm.on-exit then decides); checked by
   * {@link CommonArgs#choicesValid}.
   */
  OnExitOption(Arguments args) {
    this.onExit = args.value(ON_EXIT);
  }

  /** Declares the option in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.options(ON_EXIT);
  }

  /** The run with the choice applied, for {@link LocalRun#adjust}. */
  UnaryOperator<RunSpec> adjust() {
    if (onExit == null) {
      return UnaryOperator.identity();
    }
    return SessionOptions.onExit(JobsOnExit.valueOf(onExit.toUpperCase(Locale.ROOT)));
  }
}
