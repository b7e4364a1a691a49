package dev.berth.runtime.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class NvmlGpuProbeTest {

  private static final long GIB = 1L << 30;

  private final FakeNvml nvml = new FakeNvml();
  private final List<String> problems = new ArrayList<>();

  private NvmlGpuProbe open() {
    return NvmlGpuProbe.open(() -> nvml, problems::add).orElseThrow();
  }

  @Test
  void aReadingListsEveryDeviceWithMemoryUtilizationAndProcesses() {
    FakeNvml.Device d0 = nvml.add();
    d0.free = 30 * GIB;
    d0.used = 50 * GIB;
    d0.gpuPercent = 87;
    d0.processes.add(new long[] {4242, 50 * GIB});
    nvml.add().name = "NVIDIA H100 80GB HBM3";

    NvmlGpuProbe probe = open();
    List<GpuDevice> devices = probe.read();

    assertThat(devices).hasSize(2);
    GpuDevice first = devices.get(0);
    assertThat(first.index()).isZero();
    assertThat(first.uuid()).isEqualTo("GPU-fake-0");
    assertThat(first.name()).isEqualTo("NVIDIA A100-SXM4-80GB");
    assertThat(first.totalMemoryBytes()).isEqualTo(80 * GIB);
    assertThat(first.freeMemoryBytes()).isEqualTo(30 * GIB);
    assertThat(first.usedMemoryBytes()).isEqualTo(50 * GIB);
    assertThat(first.utilization()).as("87 %").isEqualTo(0.87);
    assertThat(first.processes()).containsExactly(new GpuProcess(4242, 50 * GIB));
    assertThat(devices.get(1).name()).isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(probe.lastError()).isEmpty();
    assertThat(probe.source()).isEqualTo("nvml");
    assertThat(problems).isEmpty();
  }

  @Test
  void processMemoryNotAvailableIsUnknown() {
    nvml.add().processes.add(new long[] {77, NvmlValues.NOT_AVAILABLE});
    assertThat(open().read().get(0).processes()).containsExactly(new GpuProcess(77, GpuProcess.UNKNOWN));
  }

  @Test
  void unsupportedUtilizationIsUnknownWithoutAnError() {
    nvml.add().utilizationStatus = NvmlStatus.NOT_SUPPORTED;
    NvmlGpuProbe probe = open();
    assertThat(probe.read().get(0).utilizationKnown()).isFalse();
    assertThat(probe.lastError()).isEmpty();
  }

  @Test
  void aDeviceWhoseMemoryCannotBeReadHasNoMemoryAndTheErrorSaysWhy() {
    nvml.add();
    nvml.add().memoryStatus = 15;
    NvmlGpuProbe probe = open();

    List<GpuDevice> devices = probe.read();

    assertThat(devices).hasSize(2);
    assertThat(devices.get(1).freeMemoryBytes()).as("nothing fits on a lost GPU").isZero();
    assertThat(probe.lastError()).contains("NVML: cuda:1: memory: GPU is lost (NVML_ERROR_GPU_IS_LOST, 15)");
  }

  @Test
  void aFailedCountServesTheLastGoodReading() {
    nvml.add();
    NvmlGpuProbe probe = open();
    List<GpuDevice> good = probe.read();

    nvml.countStatus = 15;
    assertThat(probe.read()).isEqualTo(good);
    assertThat(probe.lastError()).hasValueSatisfying(e -> assertThat(e).contains("device count").contains("GPU is lost"));

    nvml.countStatus = NvmlStatus.SUCCESS;
    probe.read();
    assertThat(probe.lastError()).as("cleared by the next good reading").isEmpty();
  }

  @Test
  void anOlderDriverWithoutV3FallsBackToV2AndRemembers() {
    nvml.hasV3 = false;
    nvml.add().processes.add(new long[] {1, GIB});
    NvmlGpuProbe probe = open();

    assertThat(probe.read().get(0).processes()).containsExactly(new GpuProcess(1, GIB));
    probe.read();
    assertThat(nvml.processCalls).containsExactly("v2", "v2");
  }

  @Test
  void aDriverWithOnlyTheUnversionedEntryPointUsesSixteenByteEntries() {
    nvml.hasV3 = false;
    nvml.hasV2 = false;
    nvml.add().processes.add(new long[] {5, 2 * GIB});
    nvml.devices.get(0).processes.add(new long[] {6, 3 * GIB});

    assertThat(open().read().get(0).processes()).containsExactly(new GpuProcess(5, 2 * GIB), new GpuProcess(6, 3 * GIB));
    assertThat(nvml.processCalls).containsExactly("v1");
  }

  @Test
  void processesThatOutgrowTheBufferAreReadAgainWithARoomierOne() {
    FakeNvml.Device d = nvml.add();
    d.appearOnFirstCall = 40;

    List<GpuProcess> processes = open().read().get(0).processes();

    assertThat(processes).as("40 processes > the first 32 slots").hasSize(40);
    assertThat(nvml.processCalls).containsExactly("v3", "v3");
  }

  @Test
  void processesNvmlWillNotListAreAnErrorButTheDeviceStays() {
    nvml.add().processStatus = 4;
    NvmlGpuProbe probe = open();
    assertThat(probe.read()).singleElement().satisfies(d -> assertThat(d.processes()).isEmpty());
    assertThat(probe.lastError()).contains("NVML: cuda:0: processes: Insufficient Permissions (NVML_ERROR_NO_PERMISSION, 4)");
  }

  @Test
  void aLibraryThatCannotBeLoadedIsReportedNotThrown() {
    Optional<NvmlGpuProbe> probe = NvmlGpuProbe.open(() -> {
      throw new UnsatisfiedLinkError("Unable to load library 'libnvidia-ml.so.1':\n"
          + "libnvidia-ml.so.1: cannot open shared object file: No such file or directory");
    }, problems::add);

    assertThat(probe).isEmpty();
    assertThat(problems).containsExactly(
        "NVML: the library could not be loaded (Unable to load library 'libnvidia-ml.so.1')");
  }

  @Test
  void whereTheLibraryIsMissingEveryLoadSaysSoAsTheFirstDid() {
    Assumptions.assumeTrue(NvmlGpuProbe.load().isEmpty(), "this machine has NVML");
    List<String> first = new ArrayList<>();
    List<String> second = new ArrayList<>();

    NvmlGpuProbe.prepare();
    assertThat(NvmlGpuProbe.load(first::add)).isEmpty();
    assertThat(NvmlGpuProbe.load(second::add)).isEmpty();

    assertThat(first).singleElement().asString().startsWith("NVML: the library could not be loaded (");
    assertThat(second).isEqualTo(first);
  }

  @Test
  void aFailedInitializationIsReportedWithTheStatus() {
    nvml.initStatus = NvmlStatus.LIB_RM_VERSION_MISMATCH;

    assertThat(NvmlGpuProbe.open(() -> nvml, problems::add)).isEmpty();
    assertThat(problems).containsExactly(
        "NVML: initialization failed: Driver/library version mismatch (NVML_ERROR_LIB_RM_VERSION_MISMATCH, 18)");
  }

  @Test
  void closeShutsNvmlDownOnceAndLaterReadingsServeTheLastOne() {
    nvml.add();
    NvmlGpuProbe probe = open();
    List<GpuDevice> good = probe.read();

    probe.close();
    probe.close();

    assertThat(nvml.shutdowns).isEqualTo(1);
    assertThat(probe.read()).isEqualTo(good);
    assertThat(probe.lastError()).contains("NVML: the probe is closed");
  }

  @Test
  void loadingOnThisMachineNeverThrowsAndExplainsAnAbsence() {
    List<String> why = new ArrayList<>();
    Optional<NvmlGpuProbe> probe = NvmlGpuProbe.load(why::add);
    try {
      assertThat(probe.isPresent() || !why.isEmpty()).as("either NVML is here or we are told why not").isTrue();
      probe.ifPresent(p -> assertThat(p.read()).isNotNull());
    } finally {
      probe.ifPresent(NvmlGpuProbe::close);
    }
  }
}
