package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.spi.GpuProbe;
import dev.berth.testkit.FakeGpuProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DevicesCommandTest {

  private String out = "";
  private String err = "";

  private int devices(DevicesCommand command, String... args) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code = SubcommandRunner.run("devices", command, args, 0, new PrintWriter(o, true), new PrintWriter(e, true));
    out = o.toString();
    err = e.toString();
    return code;
  }

  @Test
  void simulatedGpusAreListedWithTheRealProbes() {
    int code = devices(new DevicesCommand(), "--gpus", "sim:2x80GiB");

    assertThat(code).isZero();
    assertThat(out).startsWith("task containment: ");
    String afterContainment = out.substring(out.indexOf('\n') + 1);
    assertThat(afterContainment).startsWith("task start: ");
    assertThat(afterContainment.substring(afterContainment.indexOf('\n') + 1)).startsWith("2 GPUs (source: simulated)\n")
        .contains("cuda:0  Simulated GPU 80 GiB (simulated)  0 B / 80 GiB (0%)")
        .contains("cuda:1  Simulated GPU 80 GiB (simulated)");
    assertThat(err).isEmpty();
  }

  @Test
  void noneListsNothing() {
    assertThat(devices(new DevicesCommand(), "--gpus", "none")).isZero();
    assertThat(out).startsWith("task containment: ").endsWith("\nno GPUs found (source: none)\n")
        .containsAnyOf("cgroup v2", "cgroup v1", "process tree")
        .containsPattern("\ntask start: (posix_spawn|ProcessBuilder.*)\n");
  }

  @Test
  void theDefaultSelectionIsAuto() {
    List<DeviceSelection> asked = new ArrayList<>();
    Function<DeviceSelection, GpuProbe> probes = s -> {
      asked.add(s);
      return new FakeGpuProbe().device(0, 16);
    };

    assertThat(devices(new DevicesCommand(probes))).isZero();
    assertThat(asked).containsExactly(DeviceSelection.auto());
    assertThat(out).contains("\n1 GPU (source: nvml)\n");
  }

  @Test
  void aBadGpusValueIsOneLineOnStderrAndExitCodeTwo() {
    int code = devices(new DevicesCommand(), "--gpus", "cuda:0");

    assertThat(code).isEqualTo(2);
    assertThat(out).isEmpty();
    assertThat(err).isEqualTo("berth: --gpus: 'cuda:0' is not a GPU selection; use auto, none, device indices such as"
        + " 0,2, or simulated GPUs such as sim:2x80GiB or sim:24GiB,24GiB,80GiB\n");
  }

  @Test
  void aSelectedIndexThatDoesNotExistIsExitCodeTwo() {
    Function<DeviceSelection, GpuProbe> probes = s -> {
      throw new IllegalArgumentException("GPU selection 5: no GPU with index 5; the GPUs found are 0, 1 (source: nvml)");
    };

    assertThat(devices(new DevicesCommand(probes), "--gpus", "5")).isEqualTo(2);
    assertThat(err).isEqualTo(
        "berth: --gpus: GPU selection 5: no GPU with index 5; the GPUs found are 0, 1 (source: nvml)\n");
  }

  @Test
  void helpDescribesTheGpusValues() {
    assertThat(devices(new DevicesCommand(s -> new FakeGpuProbe()), "--help")).isZero();
    assertThat(out).startsWith("Usage: berth devices").contains("--gpus=VALUE").contains("sim:2x80GiB").contains("--json");
  }

  @Test
  void jsonIsPrintedOnRequestAndTheProbeIsClosed() {
    FakeGpuProbe probe = new FakeGpuProbe().device(0, 16).used(0, 1L << 30).process(0, 99, 1L << 30);

    assertThat(devices(new DevicesCommand(s -> probe), "--json")).isZero();

    assertThat(out).startsWith("{\n  \"source\": \"nvml\",\n  \"error\": null,\n")
        .contains("\"processes\": [{\"pid\": 99, \"memoryBytes\": 1073741824}]");
    assertThat(probe.closed()).isTrue();
  }

  @Test
  void aProbeErrorIsShownAsAWarning() {
    FakeGpuProbe probe = new FakeGpuProbe().device(0, 16);
    probe.read();
    probe.failing("nvidia-smi did not answer within 10000 ms");

    assertThat(devices(new DevicesCommand(s -> probe))).isZero();
    assertThat(out).contains("cuda:0").endsWith("warning: nvidia-smi did not answer within 10000 ms\n");
  }
}
