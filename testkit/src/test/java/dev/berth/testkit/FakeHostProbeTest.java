package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class FakeHostProbeTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final TaskId A = TaskId.of("a");
  private static final TaskId B = TaskId.of("b");

  @Test
  void theDefaultsDescribeASmallIdleMachine() {
    HostSnapshot snapshot = new FakeHostProbe().read(NOW, new TreeMap<>());

    assertThat(snapshot.takenAt()).isEqualTo(NOW);
    assertThat(snapshot.logicalCpus()).isEqualTo(2);
    assertThat(snapshot.totalMemoryBytes()).isEqualTo(16L << 30);
    assertThat(snapshot.availableMemoryBytes()).isEqualTo(12L << 30);
    assertThat(snapshot.cpuUtilization()).isEqualTo(0.1);
    assertThat(snapshot.taskMemoryBytes()).isEmpty();
  }

  @Test
  void scriptedReadingsAreReported() {
    FakeHostProbe probe = new FakeHostProbe().cpus(8).totalGiB(64).availableGiB(1.5).utilization(0.75);

    HostSnapshot snapshot = probe.read(NOW, new TreeMap<>());

    assertThat(snapshot.logicalCpus()).isEqualTo(8);
    assertThat(snapshot.totalMemoryBytes()).isEqualTo(64L << 30);
    assertThat(snapshot.availableMemoryBytes()).isEqualTo(3L << 29);
    assertThat(snapshot.cpuUtilization()).isEqualTo(0.75);
  }

  @Test
  void anUnknownUtilizationStaysUnknown() {
    HostSnapshot snapshot = new FakeHostProbe().unknownUtilization().read(NOW, new TreeMap<>());

    assertThat(snapshot.cpuUtilizationKnown()).isFalse();
  }

  @Test
  void taskMemoryIsReportedOnlyForTasksAskedAboutWithAScriptedFigure() {
    FakeHostProbe probe = new FakeHostProbe().taskMemory(A, 100).taskMemory(B, 200);
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    pids.put(A, 11L);
    pids.put(TaskId.of("c"), 12L);

    HostSnapshot snapshot = probe.read(NOW, pids);

    assertThat(snapshot.taskMemoryBytes()).containsExactly(java.util.Map.entry(A, 100L));
    assertThat(probe.lastTaskPids()).isEqualTo(pids);
    assertThat(probe.reads()).isEqualTo(1);
  }

  @Test
  void forgottenTaskMemoryIsNoLongerReported() {
    FakeHostProbe probe = new FakeHostProbe().taskMemory(A, 100).forgetTaskMemory(A);
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    pids.put(A, 11L);

    assertThat(probe.read(NOW, pids).taskMemoryBytes()).isEmpty();
  }
}
