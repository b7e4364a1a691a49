package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunSpecTest {

  private static TaskSpec task(String id, String group) {
    return TaskSpec.builder(id, group).command("true").build();
  }

  @Test
  void tasksAreListedGroupByGroupInSubmissionOrder() {
    RunSpec run = new RunSpec("r", "runs/r", SchedulerConfig.DEFAULTS, List.of(
        new GroupSpec("g1", List.of(task("c", "g1"), task("a", "g1"))),
        new GroupSpec("g2", List.of(task("b", "g2")))));
    assertThat(run.tasks()).extracting(t -> t.id().value()).containsExactly("c", "a", "b");
  }

  @Test
  void rejectsATaskIdUsedInTwoGroups() {
    assertThatThrownBy(() -> new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(
        new GroupSpec("g1", List.of(task("a", "g1"))),
        new GroupSpec("g2", List.of(task("a", "g2"))))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a' is used in groups g1 and g2");
  }

  @Test
  void rejectsAGroupNameUsedTwice() {
    assertThatThrownBy(() -> new RunSpec("r", "w", SchedulerConfig.DEFAULTS, List.of(
        new GroupSpec("g", List.of(task("a", "g"))),
        new GroupSpec("g", List.of(task("b", "g"))))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'g' is used twice");
  }

  @Test
  void rejectsABadRunNameAndMissingParts() {
    assertThatThrownBy(() -> new RunSpec("a/b", "w", SchedulerConfig.DEFAULTS, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a/b'");
    assertThatThrownBy(() -> new RunSpec("r", null, SchedulerConfig.DEFAULTS, List.of()))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> new RunSpec("r", "w", null, List.of()))
        .isInstanceOf(NullPointerException.class);
  }
}
