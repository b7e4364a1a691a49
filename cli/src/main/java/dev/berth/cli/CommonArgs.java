package dev.berth.cli;

import dev.berth.cli.args.Option;
import dev.berth.cli.args.Parameter;

/** Parameters and options that several commands take with the same meaning, declared once. */
final class CommonArgs {

  /** The folder of the run the command acts on. */
  static final Parameter WORKDIR = Parameter.required("WORKDIR", "The run's workdir.");

  /** Plain lines instead of the live view, for the commands that run tasks. */
  static final Option NO_PROGRESS = Option.flag("--no-progress", "Plain lines instead of the live progress view.");

  /** JSON output, for the commands that print what they read. */
  static final Option JSON = Option.flag("--json", "Print JSON for scripts.");

  private CommonArgs() {}
}
