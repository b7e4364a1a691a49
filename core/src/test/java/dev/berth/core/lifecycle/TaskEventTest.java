package dev.berth.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class TaskEventTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aReleaseMakesTheTaskReady() {
    assertThat(new TaskEvent.Released(T).target()).isEqualTo(TaskState.READY);
  }

  @Test
  void aLaunchTargetsRunningOrAvailableByProtocol() {
    Placement p = Placement.cpu(1, 1000);
    assertThat(new TaskEvent.Launched(T, 1, p, 1, false).target()).isEqualTo(TaskState.RUNNING);
    assertThat(new TaskEvent.Launched(T, 1, p, 1, true).target()).isEqualTo(TaskState.AVAILABLE);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
  void attemptNumbersStartAtOne(int attempt) {
    assertThatThrownBy(() -> new TaskEvent.Launched(T, attempt, Placement.cpu(0, 0), -1, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(String.valueOf(attempt));
  }

  @ParameterizedTest
  @EnumSource(TaskState.class)
  void settledAcceptsOnlyTerminalStates(TaskState target) {
    if (target.isTerminal()) {
      assertThat(new TaskEvent.Settled(T, target, "why").target()).isEqualTo(target);
    } else {
      assertThatThrownBy(() -> new TaskEvent.Settled(T, target, "why"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(target.name());
    }
  }

  @Test
  void eventsRequireATime() {
    assertThatThrownBy(() -> new TaskEvent.Released(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new TaskEvent.Launched(null, 1, Placement.cpu(0, 0), 1, false))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new TaskEvent.Ended(null, Outcome.FAILED, 1, "x", TaskState.FAILED))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new TaskEvent.Settled(null, TaskState.FAILED, "x"))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void aCpuPlacementHasNoGpuMemory() {
    Placement p = Placement.cpu(1024, 500);
    assertThat(p.device()).isEqualTo(Placement.CPU).isEqualTo("cpu");
    assertThat(p.memoryBytes()).isEqualTo(1024);
    assertThat(p.milliCpus()).isEqualTo(500);
    assertThat(p.gpuMemoryBytes()).isZero();
  }
}
