package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;
import java.io.PrintWriter;
import java.util.Optional;

/** Parameters and options that several commands take with the same meaning, declared once. */
final class CommonArgs {

  /** The folder of the run the command acts on. */
  static final Parameter WORKDIR = Parameter.required("WORKDIR", "The run's workdir.");

  /** Plain lines instead of the live view, for the commands that run tasks. */
  static final Option NO_PROGRESS = Option.flag("--no-progress", "Plain lines instead of the live progress view.");

  /** JSON output, for the commands that print what they read. */
  static final Option JSON = Option.flag("--json", "Print JSON for scripts.");

  private CommonArgs() {}

  /**
   * Whether each of the options, in this order, was given one of the values its label lists, or
   * none; the first that was not is told on {@code err} in one line: {@code berth: --on-exit must be
   * ask, cancel or leave, not later}.
   */
  static boolean choicesValid(Arguments args, PrintWriter err, Option... options) {
    for (Option option : options) {
      Optional<String> problem = args.notAChoice(option);
      if (problem.isPresent()) {
        err.println("berth: " + problem.get());
        return false;
      }
    }
    return true;
  }
}
