package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.cli.DevicesCommand.DeviceTable;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import dev.berth.core.gpu.SimulatedDevices;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DevicesTableTest {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  private static final GpuDevice BUSY = new GpuDevice(0, "GPU-3f2b8c1e", "NVIDIA A100-SXM4-80GB", 80 * GIB, 60 * GIB,
      20 * GIB, 0.98, false, List.of(new GpuProcess(2184400, 20 * GIB), new GpuProcess(2184321, 40 * GIB)));
  private static final GpuDevice IDLE = new GpuDevice(1, "GPU-8e1d6a4f", "NVIDIA A100-SXM4-80GB", 80 * GIB, 4 * MIB,
      80 * GIB - 4 * MIB, 0, false, List.of());

  @Test
  void aTableShowsMemoryUtilizationReservationsAndProcessesPerDevice() {
    String table = DeviceTable.render("nvml", Optional.empty(), List.of(BUSY, IDLE), Map.of(0, 24 * GIB));

    assertThat(table).isEqualTo("""
        2 GPUs (source: nvml)
        GPU     NAME                   MEMORY USED / TOTAL    UTIL  BERTH RESERVED  PROCESSES
        cuda:0  NVIDIA A100-SXM4-80GB  60 GiB / 80 GiB (75%)   98%  24 GiB          2184321 (40 GiB), 2184400 (20 GiB)
        cuda:1  NVIDIA A100-SXM4-80GB  4 MiB / 80 GiB (0%)      0%  0 B             -
        """);
  }

  @Test
  void simulatedDevicesAreLabelledAndUnknownsShowAsNa() {
    GpuDevice sim = SimulatedDevices.device(0, 24 * GIB)
        .withMemory(6 * GIB, 18 * GIB)
        .withProcesses(List.of(new GpuProcess(31877, GpuProcess.UNKNOWN)));

    String table = DeviceTable.render("simulated", Optional.empty(), List.of(sim), Map.of());

    assertThat(table).isEqualTo("""
        1 GPU (source: simulated)
        GPU     NAME                              MEMORY USED / TOTAL   UTIL  BERTH RESERVED  PROCESSES
        cuda:0  Simulated GPU 24 GiB (simulated)  6 GiB / 24 GiB (25%)   n/a  0 B             31877 (n/a)
        """);
  }

  @Test
  void anIncompleteReadingEndsWithAWarning() {
    String table = DeviceTable.render("nvidia-smi", Optional.of("processes unknown: nvidia-smi exited with 4"),
        List.of(IDLE), Map.of());

    assertThat(table).endsWith("\nwarning: processes unknown: nvidia-smi exited with 4\n");
  }

  @Test
  void noDevicesSayWhereBerthLookedAndWhy() {
    assertThat(DeviceTable.render("none", Optional.empty(), List.of(), Map.of()))
        .isEqualTo("no GPUs found (source: none)\n");
    assertThat(DeviceTable.render("none", Optional.of("NVML: the library could not be loaded"), List.of(), Map.of()))
        .isEqualTo("no GPUs found (source: none)\n  why: NVML: the library could not be loaded\n");
  }

  @Test
  void aDeviceWithoutMemoryOrNameStillRenders() {
    GpuDevice blank = new GpuDevice(3, "", "", 0, 0, 0, -1, false, List.of());
    assertThat(DeviceTable.render("nvml", Optional.empty(), List.of(blank), Map.of())).contains(
        "cuda:3  (unnamed)  0 B / 0 B (-)         n/a");
  }

  @Test
  void jsonHasOneObjectPerDeviceWithBytesAndNullsForUnknowns() {
    GpuDevice sim = SimulatedDevices.device(1, 24 * GIB).withProcesses(List.of(new GpuProcess(7, GpuProcess.UNKNOWN)));

    String json = DeviceTable.json("nvml", Optional.of("say \"hi\"\n"), List.of(BUSY, sim), Map.of(1, GIB));

    assertThat(json).isEqualTo("""
        {
          "source": "nvml",
          "error": "say \\"hi\\"\\n",
          "devices": [
            {"id": "cuda:0", "index": 0, "uuid": "GPU-3f2b8c1e", "name": "NVIDIA A100-SXM4-80GB", "simulated": false, \
        "memoryTotalBytes": 85899345920, "memoryUsedBytes": 64424509440, "memoryFreeBytes": 21474836480, \
        "berthReservedBytes": 0, "utilization": 0.98, "processes": [{"pid": 2184321, "memoryBytes": 42949672960}, \
        {"pid": 2184400, "memoryBytes": 21474836480}]},
            {"id": "cuda:1", "index": 1, "uuid": "SIM-1", "name": "Simulated GPU 24 GiB", "simulated": true, \
        "memoryTotalBytes": 25769803776, "memoryUsedBytes": 0, "memoryFreeBytes": 25769803776, \
        "berthReservedBytes": 1073741824, "utilization": null, "processes": [{"pid": 7, "memoryBytes": null}]}
          ]
        }
        """);
  }

  @Test
  void jsonWithoutDevicesHasAnEmptyList() {
    assertThat(DeviceTable.json("none", Optional.empty(), List.of(), Map.of())).isEqualTo("""
        {
          "source": "none",
          "error": null,
          "devices": []
        }
        """);
  }

  @Test
  void jsonStringsEscapeControlCharacters() {
    assertThat(DeviceTable.string("a\\b\t\u0001")).isEqualTo("\"a\\\\b\\t\\u0001\"");
  }
}
