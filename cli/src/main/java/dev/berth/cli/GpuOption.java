package dev.berth.cli;

import dev.berth.core.gpu.DeviceSelection;
import picocli.CommandLine.Option;

/**
 * The {@code --gpus} option, shared by the commands that use GPUs (a picocli mixin:
 * {@code @Mixin GpuOption gpuOption;}). The value is parsed when the command runs, so a bad value is
 * reported as the command's own one-line error with exit code 2.
 */
final class GpuOption {

  @Option(
      names = "--gpus",
      paramLabel = "VALUE",
      defaultValue = DeviceSelection.DEFAULT,
      description = "GPUs to use: auto (default: NVML, else nvidia-smi, else none), none, device indices"
          + " such as 0,2, or simulated GPUs such as sim:2x80GiB or sim:24GiB,24GiB,80GiB.")
  String gpus = DeviceSelection.DEFAULT;

  /**
   * The parsed selection.
   *
   * @throws IllegalArgumentException naming the value and the rule when it is not valid
   */
  DeviceSelection selection() {
    return DeviceSelection.parse(gpus);
  }
}
