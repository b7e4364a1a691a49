package dev.berth.runtime.gpu;

import static dev.berth.runtime.gpu.Recordings.machine;
import static dev.berth.runtime.gpu.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.os.CommandRunner;
import dev.berth.spi.GpuProbe;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class GpuProbesTest {

  private static final Function<Consumer<String>, Optional<? extends GpuProbe>> NO_NVML = problems -> {
    problems.accept("NVML: the library could not be loaded (not here)");
    return Optional.empty();
  };

  private static Function<Consumer<String>, Optional<? extends GpuProbe>> nvmlWith(int devices) {
    FakeNvml nvml = new FakeNvml();
    for (int i = 0; i < devices; i++) {
      nvml.add();
    }
    return problems -> NvmlGpuProbe.open(() -> nvml, problems);
  }

  @Test
  void autoPrefersNvml() {
    ScriptedRunner runner = machine("rtx3090-2x");
    GpuProbe probe = GpuProbes.select(DeviceSelection.auto(), runner, nvmlWith(1));
    assertThat(probe.source()).isEqualTo("nvml");
    assertThat(runner.calls).as("nvidia-smi is not run when NVML works").isEmpty();
  }

  @Test
  void autoFallsBackToNvidiaSmiWhenNvmlIsMissing() {
    GpuProbe probe = GpuProbes.select(DeviceSelection.auto(), machine("rtx3090-2x"), NO_NVML);
    assertThat(probe.source()).isEqualTo("nvidia-smi");
    assertThat(probe.read()).hasSize(2);
  }

  @Test
  void autoEndsWithNoGpusAndSaysWhyNeitherProbeWorked() {
    GpuProbe probe = GpuProbes.select(DeviceSelection.auto(), new ScriptedRunner(), NO_NVML);

    assertThat(probe.source()).isEqualTo("none");
    assertThat(probe.read()).isEmpty();
    assertThat(probe.lastError()).hasValueSatisfying(why -> assertThat(why)
        .startsWith("NVML: the library could not be loaded (not here); nvidia-smi could not be run: Cannot run program"));
  }

  @Test
  void autoOnAMachineWithTheVersionMismatchEndsWithNone() {
    GpuProbe probe = GpuProbes.select(DeviceSelection.auto(),
        new ScriptedRunner().answerBoth(CommandRunner.Result.exited(18, read("driver-library-mismatch.txt"))), NO_NVML);
    assertThat(probe.source()).isEqualTo("none");
    assertThat(probe.lastError()).hasValueSatisfying(why -> assertThat(why).contains("Driver/library version mismatch"));
  }

  @Test
  void noneHasNoDevicesAndNothingToExplain() {
    ScriptedRunner runner = machine("rtx3090-2x");
    GpuProbe probe = GpuProbes.select(DeviceSelection.none(), runner, nvmlWith(2));
    assertThat(probe.source()).isEqualTo("none");
    assertThat(probe.read()).isEmpty();
    assertThat(probe.lastError()).isEmpty();
    assertThat(runner.calls).isEmpty();
  }

  @Test
  void simServesTheSimulatedDevices() {
    GpuProbe probe = GpuProbes.select(DeviceSelection.parse("sim:2x80GiB"), new ScriptedRunner(), NO_NVML);
    assertThat(probe.source()).isEqualTo("simulated");
    assertThat(probe).isInstanceOf(SimulatedGpuProbe.class);
    assertThat(probe.read()).hasSize(2);
  }

  @Test
  void indicesRestrictTheAutoProbeAndKeepTheirNumbers() {
    GpuProbe probe = GpuProbes.select(DeviceSelection.parse("1,3"), machine("a100-sxm4-8x"), NO_NVML);
    assertThat(probe.read()).extracting(GpuDevice::id).containsExactly("cuda:1", "cuda:3");
    assertThat(probe.source()).isEqualTo("nvidia-smi");
  }

  @Test
  void anIndexThatDoesNotExistIsAnErrorNamingWhatExists() {
    assertThatThrownBy(() -> GpuProbes.select(DeviceSelection.parse("1,2,5"), machine("rtx3090-2x"), NO_NVML))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("GPU selection 1,2,5: no GPU with index 2, 5; the GPUs found are 0, 1 (source: nvidia-smi)");
  }

  @Test
  void anIndexOnAMachineWithoutGpusIsAnErrorSayingWhy() {
    assertThatThrownBy(() -> GpuProbes.select(DeviceSelection.parse("0"), new ScriptedRunner(), NO_NVML))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("GPU selection 0: no GPU with index 0; no GPUs were found (source: none: NVML: the library");
  }
}
