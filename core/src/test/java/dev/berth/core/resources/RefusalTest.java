package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RefusalTest {

  private static final long GIB = 1L << 30;

  @Test
  void aMemoryRefusalReadsAsAskedFreeAndReserved() {
    Refusal r = new Refusal(Resource.MEMORY, "host", 2 * GIB, 3 * GIB / 2, 3 * GIB, "remain-limit.memory");
    assertThat(r.describe())
        .isEqualTo("memory on host: asked 2 GiB, free 1.5 GiB (3 GiB reserved by Berth) [remain-limit.memory]");
  }

  @Test
  void nothingReservedIsLeftOut() {
    Refusal r = new Refusal(Resource.MEMORY, "host", 512L << 20, 0, 0, "available memory");
    assertThat(r.describe()).isEqualTo("memory on host: asked 512 MiB, free 0 B [available memory]");
  }

  @Test
  void aRefusalFromTheHostLedgerLeavesWhatIsFreeToItsRule() {
    Refusal r = new Refusal(Resource.GPU_MEMORY, "cuda:0", 10 * GIB, -1, 0, "held by run b of user bob");
    assertThat(r.describe()).isEqualTo("gpu-memory on cuda:0: asked 10 GiB [held by run b of user bob]");
  }

  @Test
  void aCpuRefusalWritesCores() {
    Refusal r = new Refusal(Resource.CPUS, "host", 2500, 1000, 7000, "scheduler.cores");
    assertThat(r.describe()).isEqualTo("cpus on host: asked 2.500, free 1 (7 reserved by Berth) [scheduler.cores]");
  }

  @Test
  void aProcessRefusalSaysHowManyRun() {
    Refusal r = new Refusal(Resource.PROCESSES, "host", 1, 0, 20, "scheduler.max-process");
    assertThat(r.describe()).isEqualTo("processes: 20 running, none free [scheduler.max-process]");
  }

  @Test
  void aUtilizationRefusalWritesPercentages() {
    Refusal r = new Refusal(Resource.CPU_UTILIZATION, "host", 800, 925, 0, "utilization-limit.cpu");
    assertThat(r.describe())
        .isEqualTo("cpu-utilization on host: other processes keep the CPUs 92.5% busy, limit 80.0% [utilization-limit.cpu]");
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource(delimiter = '|', textBlock = """
      MEMORY          | 1610612736 | 1.5 GiB
      CPUS            | 3000       | 3
      CPUS            | 500        | 0.500
      PROCESSES       | 12         | 12
      CPU_UTILIZATION | 5          | 0.5%
      """)
  void resourcesFormatTheirAmounts(Resource resource, long amount, String text) {
    assertThat(resource.format(amount)).isEqualTo(text);
  }

  @Test
  void resourceKeysAreTheNamesUsedInReports() {
    assertThat(Resource.MEMORY.key()).isEqualTo("memory");
    assertThat(Resource.CPUS.key()).isEqualTo("cpus");
    assertThat(Resource.PROCESSES.key()).isEqualTo("processes");
    assertThat(Resource.CPU_UTILIZATION.key()).isEqualTo("cpu-utilization");
  }

  @Test
  void requiresResourceDeviceAndRule() {
    assertThatThrownBy(() -> new Refusal(null, "host", 1, 1, 1, "r")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Refusal(Resource.CPUS, null, 1, 1, 1, "r")).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new Refusal(Resource.CPUS, "host", 1, 1, 1, null)).isInstanceOf(NullPointerException.class);
  }
}
