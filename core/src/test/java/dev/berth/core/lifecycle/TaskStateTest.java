package dev.berth.core.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskStateTest {

  @Test
  void everyStateIsFoundByItsName() {
    for (TaskState s : TaskState.values()) {
      assertThat(TaskState.named(s.name())).isEqualTo(s);
    }
  }

  @Test
  void theNamesAnOlderBerthWroteStillRead() {
    assertThat(TaskState.named("INIT")).isEqualTo(TaskState.READY);
    assertThat(TaskState.named("WAITING")).isEqualTo(TaskState.LOADED);
    assertThat(TaskState.named("FINISHED")).isEqualTo(TaskState.TRAINED);
    assertThat(TaskState.named("INTERRUPT")).isEqualTo(TaskState.OUT_OF_MEMORY);
    assertThat(TaskState.named("EXITED")).isEqualTo(TaskState.SUCCEEDED);
    assertThat(TaskState.named("EXCEPTION")).isEqualTo(TaskState.FAILED);
  }

  @Test
  void anUnknownNameIsRefused() {
    assertThatThrownBy(() -> TaskState.named("DONE")).isInstanceOf(IllegalArgumentException.class);
  }
}
