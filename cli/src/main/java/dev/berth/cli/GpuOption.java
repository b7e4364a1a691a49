package dev.berth.cli;

import dev.berth.cli.args.Arguments;
import dev.berth.cli.args.CommandSyntax;
import dev.berth.cli.args.Option;
import dev.berth.core.gpu.DeviceSelection;

/**
 * The {@code --gpus} option, for the commands that use GPUs ({@link #declare} in the syntax, then
 * {@code new GpuOption(args)}). The value is parsed when the command runs, so a bad value is reported
 * as the command's own one-line error with exit code 2.
 */
final class GpuOption {

  static final Option GPUS = Option.value("--gpus", "VALUE",
      "GPUs to use: auto (default: NVML, else nvidia-smi, else none), none, device indices"
          + " such as 0,2, or simulated GPUs such as sim:2x80GiB or sim:24GiB,24GiB,80GiB.")
      .defaultValue(DeviceSelection.DEFAULT);

  private final String gpus;

  /** The choice on the command line, {@code auto} when none. */
  GpuOption(Arguments args) {
    this.gpus = args.value(GPUS);
  }

  /** Declares the option in a command's syntax. */
  static void declare(CommandSyntax.Builder syntax) {
    syntax.options(GPUS);
  }

  /**
   * The parsed selection.
   *
   * @throws IllegalArgumentException naming the value and the rule when it is not valid
   */
  DeviceSelection selection() {
    return DeviceSelection.parse(gpus);
  }
}
