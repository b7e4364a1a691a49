package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class GroupSpecTest {

  private static TaskSpec task(String id, String group) {
    return TaskSpec.builder(id, group).command("true").build();
  }

  @Test
  void keepsTasksInSubmissionOrder() {
    GroupSpec g = new GroupSpec("g", List.of(task("b", "g"), task("a", "g")));
    assertThat(g.tasks()).extracting(t -> t.id().value()).containsExactly("b", "a");
  }

  @Test
  void rejectsATaskThatNamesAnotherGroup() {
    assertThatThrownBy(() -> new GroupSpec("g1", List.of(task("a", "g2"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task a names group g2, not g1");
  }

  @Test
  void rejectsADuplicateTaskId() {
    assertThatThrownBy(() -> new GroupSpec("g", List.of(task("a", "g"), task("a", "g"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a' appears twice");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", "a/b", "a b"})
  void rejectsNamesThatAreNotSafeAsAFolderName(String name) {
    assertThatThrownBy(() -> new GroupSpec(name, List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + name + "'");
  }
}
