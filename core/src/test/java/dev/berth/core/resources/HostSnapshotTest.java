package dev.berth.core.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HostSnapshotTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static HostSnapshot snapshot(double utilization) {
    return new HostSnapshot(T, 4, utilization, 100, 50, new TreeMap<>());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"0.5, 0.5", "0, 0", "1, 1", "1.7, 1", "-0.2, -1", "-1, -1", "NaN, -1"})
  void utilizationIsClampedOrMarkedUnknown(double given, double stored) {
    HostSnapshot s = snapshot(given);
    assertThat(s.cpuUtilization()).isEqualTo(stored);
    assertThat(s.cpuUtilizationKnown()).isEqualTo(stored >= 0);
  }

  @Test
  void availableMemoryIsNeverMoreThanTotal() {
    assertThat(new HostSnapshot(T, 1, 0, 100, 150, new TreeMap<>()).availableMemoryBytes()).isEqualTo(100);
  }

  @Test
  void rejectsImpossibleReadings() {
    assertThatThrownBy(() -> new HostSnapshot(T, 0, 0, 100, 50, new TreeMap<>()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("logicalCpus");
    assertThatThrownBy(() -> new HostSnapshot(T, 1, 0, -1, 0, new TreeMap<>()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HostSnapshot(T, 1, 0, 1, -1, new TreeMap<>()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new HostSnapshot(null, 1, 0, 1, 1, new TreeMap<>()))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void taskMemoryIsACopyThatCannotBeChanged() {
    TreeMap<TaskId, Long> measured = new TreeMap<>(Map.of(TaskId.of("a"), 5L));
    HostSnapshot s = new HostSnapshot(T, 1, 0, 100, 50, measured);
    measured.put(TaskId.of("b"), 6L);
    assertThat(s.taskMemoryBytes()).containsOnlyKeys(TaskId.of("a"));
    assertThatThrownBy(() -> s.taskMemoryBytes().put(TaskId.of("c"), 1L))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
