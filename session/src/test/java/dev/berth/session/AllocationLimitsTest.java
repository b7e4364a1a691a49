package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.testkit.FakeHostProbe;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an allocation lets the Berth inside use: Slurm's variables, the cgroup's limit, and the capped host. */
class AllocationLimitsTest {

  private static final long MIB = 1L << 20;
  private static final long GIB = 1L << 30;

  @TempDir Path dir;

  @Test
  void memoryPerNodeIsTheAllocationsMemoryAndTheCoresAndGpusAreSlurms() {
    AllocationLimits limits = AllocationLimits.of(Map.of("SLURM_MEM_PER_NODE", "1024", "SLURM_CPUS_ON_NODE", "2",
        "CUDA_VISIBLE_DEVICES", "0,1")::get, OptionalLong.empty());

    assertThat(limits.memoryBytes()).hasValue(GIB);
    assertThat(limits.cpus()).hasValue(2);
    assertThat(limits.gpus()).contains("0,1");
  }

  @Test
  void memoryPerCpuCountsOncePerCoreAndSlurmJobGpusStandsInForCudaVisibleDevices() {
    AllocationLimits limits = AllocationLimits.of(Map.of("SLURM_MEM_PER_CPU", "300", "SLURM_CPUS_ON_NODE", "2",
        "SLURM_JOB_GPUS", "3")::get, OptionalLong.empty());

    assertThat(limits.memoryBytes()).hasValue(600 * MIB);
    assertThat(limits.gpus()).contains("3");
  }

  @Test
  void aLowerCgroupLimitWinsAndAHigherOneDoesNot() {
    Map<String, String> env = Map.of("SLURM_MEM_PER_NODE", "1024");

    assertThat(AllocationLimits.of(env::get, OptionalLong.of(512 * MIB)).memoryBytes()).hasValue(512 * MIB);
    assertThat(AllocationLimits.of(env::get, OptionalLong.of(4 * GIB)).memoryBytes()).hasValue(GIB);
    assertThat(AllocationLimits.of(Map.<String, String>of()::get, OptionalLong.empty()).memoryBytes()).isEmpty();
  }

  @Test
  void theCgroupV2LimitIsReadFromTheProcessesOwnCgroup() throws Exception {
    Files.writeString(dir.resolve("cgroup"), "0::/slurm/uid_0/job_7/step_batch\n");
    Path own = Files.createDirectories(dir.resolve("fs/slurm/uid_0/job_7/step_batch"));
    Files.writeString(own.resolve("memory.max"), "1073741824\n");

    assertThat(AllocationLimits.cgroupMemoryLimit(dir.resolve("cgroup"), dir.resolve("fs"))).hasValue(GIB);
  }

  @Test
  void cgroupV1IsReadAndInsideANamespaceTheMountsRootIsTheOwnCgroup() throws Exception {
    Files.writeString(dir.resolve("cgroup"), "5:devices:/\n4:memory:/process_api/e5d6\n0::/\n");
    Files.createDirectories(dir.resolve("fs/memory"));
    Files.writeString(dir.resolve("fs/memory/memory.limit_in_bytes"), "536870912\n");

    assertThat(AllocationLimits.cgroupMemoryLimit(dir.resolve("cgroup"), dir.resolve("fs"))).hasValue(512 * MIB);
  }

  @Test
  void noLimitIsNoLimit() throws Exception {
    Files.writeString(dir.resolve("cgroup"), "4:memory:/\n");
    Files.createDirectories(dir.resolve("fs/memory"));
    Files.writeString(dir.resolve("fs/memory/memory.limit_in_bytes"), "9223372036854771712\n");
    Files.writeString(dir.resolve("v2"), "0::/\n");
    Files.writeString(dir.resolve("fs/memory.max"), "max\n");

    assertThat(AllocationLimits.cgroupMemoryLimit(dir.resolve("cgroup"), dir.resolve("fs"))).isEmpty();
    assertThat(AllocationLimits.cgroupMemoryLimit(dir.resolve("v2"), dir.resolve("fs"))).isEmpty();
    assertThat(AllocationLimits.cgroupMemoryLimit(dir.resolve("absent"), dir.resolve("fs"))).isEmpty();
  }

  @Test
  void theCappedHostHasTheAllocationsMemoryLessWhatTheTasksAndBerthHoldAndNoNodeLoad() {
    TaskId a = TaskId.of("a");
    FakeHostProbe node = new FakeHostProbe().cpus(2).totalMemory(20 * GIB).availableMemory(18 * GIB)
        .taskMemory(a, 300 * MIB);

    HostSnapshot capped = new AllocationHostProbe(node, GIB, () -> 100 * MIB)
        .read(Instant.EPOCH, new TreeMap<>(Map.of(a, 42L)));

    assertThat(capped.totalMemoryBytes()).isEqualTo(GIB);
    assertThat(capped.availableMemoryBytes()).isEqualTo(GIB - 400 * MIB);
    assertThat(capped.logicalCpus()).isEqualTo(2);
    assertThat(capped.cpuUtilizationKnown()).as("the node's load is other jobs' on other cores").isFalse();
    assertThat(capped.taskMemoryBytes()).containsEntry(a, 300 * MIB);
  }

  @Test
  void theNodesFreeMemoryStillLimitsWhenItIsLess() {
    FakeHostProbe node = new FakeHostProbe().totalMemory(20 * GIB).availableMemory(200 * MIB);

    HostSnapshot capped = new AllocationHostProbe(node, GIB, () -> 0).read(Instant.EPOCH, new TreeMap<>());

    assertThat(capped.availableMemoryBytes()).isEqualTo(200 * MIB);
  }
}
