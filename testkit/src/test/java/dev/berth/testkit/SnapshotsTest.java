package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.berth.core.model.TaskId;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SnapshotsTest {

  @Test
  void theBuilderSetsEveryReading() {
    Instant at = Instant.parse("2026-05-05T05:05:05Z");

    HostSnapshot snapshot = Snapshots.host()
        .cpus(4).totalGiB(32).availableGiB(8).utilization(0.5).at(at)
        .taskMemory("a", 1000).taskMemoryMiB("b", 1.5)
        .build();

    assertThat(snapshot.takenAt()).isEqualTo(at);
    assertThat(snapshot.logicalCpus()).isEqualTo(4);
    assertThat(snapshot.totalMemoryBytes()).isEqualTo(32L << 30);
    assertThat(snapshot.availableMemoryBytes()).isEqualTo(8L << 30);
    assertThat(snapshot.cpuUtilization()).isEqualTo(0.5);
    assertThat(snapshot.taskMemoryBytes())
        .containsExactly(entry(TaskId.of("a"), 1000L), entry(TaskId.of("b"), 3L << 19));
  }

  @Test
  void theDefaultsMatchTheFakeProbeAndTheFakeClock() {
    HostSnapshot snapshot = Snapshots.host().build();

    assertThat(snapshot).isEqualTo(new FakeHostProbe().read(new FakeClock().instant(), new java.util.TreeMap<>()));
  }

  @Test
  void utilizationCanBeUnknown() {
    assertThat(Snapshots.host().unknownUtilization().build().cpuUtilizationKnown()).isFalse();
  }

  @Test
  void byteFiguresAreTakenAsGiven() {
    HostSnapshot snapshot = Snapshots.host().totalBytes(1000).availableBytes(400).build();

    assertThat(snapshot.totalMemoryBytes()).isEqualTo(1000);
    assertThat(snapshot.availableMemoryBytes()).isEqualTo(400);
  }
}
