package dev.berth.runtime.gpu;

import static dev.berth.runtime.gpu.Recordings.MIB;
import static dev.berth.runtime.gpu.Recordings.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import dev.berth.runtime.gpu.NvidiaSmiCsv.ComputeApp;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NvidiaSmiCsvTest {

  @Test
  void theQueriesAreTheDocumentedOnes() {
    assertThat(String.join(" ", NvidiaSmiCsv.QUERY_GPUS)).isEqualTo(
        "nvidia-smi --query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu"
            + " --format=csv,noheader,nounits");
    assertThat(String.join(" ", NvidiaSmiCsv.QUERY_COMPUTE_APPS))
        .isEqualTo("nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory --format=csv,noheader,nounits");
  }

  @Test
  void anEightWayA100BoxGivesEightDevicesInMib() {
    List<GpuDevice> devices = NvidiaSmiCsv.parseGpus(read("a100-sxm4-8x.query-gpu.txt"));

    assertThat(devices).hasSize(8).extracting(GpuDevice::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    GpuDevice first = devices.get(0);
    assertThat(first.uuid()).isEqualTo("GPU-3f2b8c1e-5a4d-7e90-b1c2-d3e4f5a6b7c8");
    assertThat(first.name()).isEqualTo("NVIDIA A100-SXM4-80GB");
    assertThat(first.totalMemoryBytes()).as("81920 MiB").isEqualTo(81920 * MIB);
    assertThat(first.usedMemoryBytes()).as("62137 MiB").isEqualTo(62137 * MIB);
    assertThat(first.freeMemoryBytes()).as("19216 MiB").isEqualTo(19216 * MIB);
    assertThat(first.utilization()).as("98 %").isEqualTo(0.98);
    assertThat(first.simulated()).isFalse();
    assertThat(devices.get(4).utilization()).as("100 %").isEqualTo(1.0);
    assertThat(devices.get(3).usedMemoryBytes()).as("idle card: 4 MiB").isEqualTo(4 * MIB);
  }

  @Test
  void computeAppsAttachToTheDeviceWithTheirUuid() {
    List<GpuDevice> devices = NvidiaSmiCsv.attach(
        NvidiaSmiCsv.parseGpus(read("a100-sxm4-8x.query-gpu.txt")),
        NvidiaSmiCsv.parseComputeApps(read("a100-sxm4-8x.query-compute-apps.txt")));

    assertThat(devices.get(0).processes()).containsExactly(new GpuProcess(2184321, 62130 * MIB));
    assertThat(devices.get(2).processes()).as("two jobs share GPU 2")
        .containsExactly(new GpuProcess(2190107, 20478 * MIB), new GpuProcess(2190245, 20478 * MIB));
    assertThat(devices.get(3).processes()).isEmpty();
    assertThat(devices.stream().mapToInt(d -> d.processes().size()).sum()).as("6 lines, 6 processes").isEqualTo(6);
  }

  @Test
  void aTwoWayConsumerBoxParses() {
    List<GpuDevice> devices = NvidiaSmiCsv.attach(
        NvidiaSmiCsv.parseGpus(read("rtx3090-2x.query-gpu.txt")),
        NvidiaSmiCsv.parseComputeApps(read("rtx3090-2x.query-compute-apps.txt")));

    assertThat(devices).extracting(GpuDevice::name).containsOnly("NVIDIA GeForce RTX 3090");
    assertThat(devices.get(1).usedMemoryBytes()).as("Xorg's 312 MiB shows as used, not as a process").isEqualTo(312 * MIB);
    assertThat(devices.get(1).processes()).isEmpty();
    assertThat(devices.get(0).processes()).containsExactly(new GpuProcess(48211, 21150 * MIB));
  }

  @Test
  void aMigParentHasUnknownUtilizationAndProcessesOfUnknownMemory() {
    List<GpuDevice> devices = NvidiaSmiCsv.attach(
        NvidiaSmiCsv.parseGpus(read("a100-mig.query-gpu.txt")),
        NvidiaSmiCsv.parseComputeApps(read("a100-mig.query-compute-apps.txt")));

    GpuDevice parent = devices.get(0);
    assertThat(parent.utilizationKnown()).as("[N/A]").isFalse();
    assertThat(parent.freeMemoryBytes()).isEqualTo(29697 * MIB);
    assertThat(parent.processes()).extracting(GpuProcess::pid).containsExactly(31877L, 31902L);
    assertThat(parent.processes()).noneMatch(GpuProcess::usedMemoryKnown);
  }

  @Test
  void aLaptopGpuWithoutUtilizationAndWithoutProcessesParses() {
    List<GpuDevice> devices = NvidiaSmiCsv.attach(
        NvidiaSmiCsv.parseGpus(read("laptop-rtx3050.query-gpu.txt")),
        NvidiaSmiCsv.parseComputeApps(read("laptop-rtx3050.query-compute-apps.txt")));

    assertThat(devices).singleElement().satisfies(d -> {
      assertThat(d.name()).isEqualTo("NVIDIA GeForce RTX 3050 Laptop GPU");
      assertThat(d.utilizationKnown()).as("[Not Supported]").isFalse();
      assertThat(d.totalMemoryBytes()).isEqualTo(4096 * MIB);
      assertThat(d.processes()).isEmpty();
    });
  }

  @Test
  void noDevicesWereFoundIsAnEmptyReading() {
    String text = read("no-devices.txt");
    assertThat(NvidiaSmiCsv.saysNoDevices(text)).isTrue();
    assertThat(NvidiaSmiCsv.parseGpus(text)).isEmpty();
    assertThat(NvidiaSmiCsv.parseComputeApps(text)).isEmpty();
  }

  @Test
  void theVersionMismatchMessageIsNotCsv() {
    String text = read("driver-library-mismatch.txt");
    assertThat(NvidiaSmiCsv.saysNoDevices(text)).isFalse();
    assertThat(NvidiaSmiCsv.firstLine(text, "")).isEqualTo("Failed to initialize NVML: Driver/library version mismatch");
    assertThatThrownBy(() -> NvidiaSmiCsv.parseGpus(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("line 1: expected 7 comma-separated fields but found 1");
  }

  @Test
  void extraSpacesAndWindowsLineEndsAreTolerated() {
    List<GpuDevice> devices = NvidiaSmiCsv.parseGpus(
        "\r\n  1 ,GPU-b ,  Tesla T4  ,15360,  0 ,15101 , 0 \r\n0, GPU-a, Tesla T4, 15360, 10, 15091, 5\r\n\r\n");

    assertThat(devices).extracting(GpuDevice::index).as("sorted by index").containsExactly(0, 1);
    assertThat(devices.get(1).uuid()).isEqualTo("GPU-b");
    assertThat(devices.get(1).name()).isEqualTo("Tesla T4");
    assertThat(devices.get(1).freeMemoryBytes()).isEqualTo(15101 * MIB);
  }

  @Test
  void unknownUsedMemoryIsDerivedFromTotalAndFree() {
    GpuDevice d = NvidiaSmiCsv.parseGpus("0, GPU-a, X, 1000, [N/A], 600, 1").get(0);
    assertThat(d.usedMemoryBytes()).as("1000 - 600 MiB").isEqualTo(400 * MIB);
  }

  @Test
  void unknownFreeMemoryIsDerivedFromTotalAndUsed() {
    GpuDevice d = NvidiaSmiCsv.parseGpus("0, GPU-a, X, 1000, 300, [N/A], 1").get(0);
    assertThat(d.freeMemoryBytes()).as("1000 - 300 MiB").isEqualTo(700 * MIB);
  }

  @Test
  void aDeviceWithNeitherFreeNorUsedKnownReadsAsFull() {
    GpuDevice d = NvidiaSmiCsv.parseGpus("0, GPU-a, X, 1000, [Unknown Error], [Unknown Error], [N/A]").get(0);
    assertThat(d.freeMemoryBytes()).as("nothing may be placed on it").isZero();
    assertThat(d.usedMemoryBytes()).isEqualTo(1000 * MIB);
  }

  @Test
  void anUnknownNameIsEmptyAndAnUnknownTotalIsNoMemory() {
    GpuDevice d = NvidiaSmiCsv.parseGpus("0, GPU-a, [N/A], [N/A], 0, 0, 0").get(0);
    assertThat(d.name()).isEmpty();
    assertThat(d.totalMemoryBytes()).isZero();
  }

  @Test
  void fractionalFiguresAreAccepted() {
    GpuDevice d = NvidiaSmiCsv.parseGpus("0, GPU-a, X, 1024.5, 0.5, 1024, 12.5").get(0);
    assertThat(d.totalMemoryBytes()).isEqualTo(1024 * MIB + MIB / 2);
    assertThat(d.utilization()).isEqualTo(0.125);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "0, GPU-a, X, lots, 0, 0, 0",
      "x, GPU-a, X, 1, 0, 0, 0",
      "-1, GPU-a, X, 1, 0, 0, 0",
      "0, GPU-a, X, 1, 0, 0, high",
      "0, GPU-a, X, -5, 0, 0, 0",
      "0, GPU-a, X, 1, 0, 0"})
  void malformedGpuLinesAreRejectedNamingTheLine(String line) {
    assertThatThrownBy(() -> NvidiaSmiCsv.parseGpus(line))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nvidia-smi output line 1")
        .hasMessageContaining(line.strip());
  }

  @Test
  void twoLinesWithTheSameIndexAreRejected() {
    assertThatThrownBy(() -> NvidiaSmiCsv.parseGpus("0, GPU-a, X, 1, 0, 1, 0\n0, GPU-b, X, 1, 0, 1, 0"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two GPUs have index 0");
  }

  @Test
  void computeAppsWithUnknownPidAreSkippedAndOthersOnUnknownGpusLeftOut() {
    List<ComputeApp> apps = NvidiaSmiCsv.parseComputeApps("GPU-a, [N/A], 10\nMIG-x, 7, 20\nGPU-a, 8, 30\n");
    assertThat(apps).containsExactly(new ComputeApp("MIG-x", 7, 20 * MIB), new ComputeApp("GPU-a", 8, 30 * MIB));

    GpuDevice a = new GpuDevice(0, "GPU-a", "X", 100 * MIB, 0, 100 * MIB, 0, false, List.of());
    assertThat(NvidiaSmiCsv.attach(List.of(a), apps).get(0).processes()).containsExactly(new GpuProcess(8, 30 * MIB));
  }

  @Test
  void malformedComputeAppLinesAreRejected() {
    assertThatThrownBy(() -> NvidiaSmiCsv.parseComputeApps("GPU-a, 12"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected 3");
    assertThatThrownBy(() -> NvidiaSmiCsv.parseComputeApps("GPU-a, twelve, 3"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pid 'twelve'");
  }

  @Test
  void firstLineFallsBackToStderrThenToNoOutput() {
    assertThat(NvidiaSmiCsv.firstLine("\n  \n", "\nboom\nmore")).isEqualTo("boom");
    assertThat(NvidiaSmiCsv.firstLine("", "")).isEqualTo("no output");
  }

  @ParameterizedTest
  @ValueSource(strings = {"[N/A]", "[Not Supported]", "[Unknown Error]", "[Insufficient Permissions]", "N/A", "ERR!", ""})
  void driverMarkersAreUnknown(String field) {
    assertThat(NvidiaSmiCsv.unknown(field)).isTrue();
  }
}
