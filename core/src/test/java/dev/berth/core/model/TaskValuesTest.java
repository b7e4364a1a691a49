package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.settings.InvalidValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskValuesTest {

  private static final SchedulerConfig CONFIG = SchedulerConfig.builder()
      .set(SchedulerKeys.DEFAULT_MEMORY, 123L).build();

  private static TaskSpec build(TaskValues values) {
    TaskSpec.Builder b = TaskSpec.builder("t", "g").command("run");
    values.applyTo(b, CONFIG);
    return b.build();
  }

  @Test
  void aTaskValueBeatsItsGroupsAndEnvIsTheUnion() {
    TaskValues group = TaskValues.read(Map.of("memory", "1MiB", "cpus", "2", "env", Map.of("A", "group", "B", "group")));
    TaskValues task = TaskValues.read(Map.of("cpus", "1", "env", Map.of("B", "task")));

    TaskSpec t = build(group.overriddenBy(task));

    assertThat(t.resources().memoryBytes()).isEqualTo(1L << 20);
    assertThat(t.resources().cpus()).isEqualTo(1.0);
    assertThat(t.env()).containsEntry("A", "group").containsEntry("B", "task");
  }

  @Test
  void memoryFallsBackToTheConfigAndOtherKeysToTheTasksBuiltInDefaults() {
    TaskSpec t = build(TaskValues.NONE);

    assertThat(t.resources().memoryBytes()).isEqualTo(123);
    assertThat(t.resources().cpus()).isEqualTo(1.0);
    assertThat(t.priority()).isZero();
  }

  @Test
  void theJavaBuildersWayOfSettingAKeyAddsEnvAndReplacesTheRest() {
    TaskValues v = TaskValues.NONE.with(TaskKeys.ENV, Map.of("A", "1")).with(TaskKeys.ENV, Map.of("B", "2"))
        .with(TaskKeys.MEMORY, 5L).with(TaskKeys.MEMORY, "1KiB");

    assertThat(v.get(TaskKeys.ENV)).contains(Map.of("A", "1", "B", "2"));
    assertThat(v.get(TaskKeys.MEMORY)).contains(1024L);
  }

  @Test
  void placeholdersAreFilledInEnvValuesAndDependencyPatternsOnly() {
    Map<String, Object> written = new LinkedHashMap<>();
    written.put("env", Map.of("LR", "{lr}"));
    written.put("after", List.of("prep-{lr}"));
    written.put("device", "cpu");

    TaskValues filled = TaskValues.read(written).filled(text -> text.replace("{lr}", "0.1"));

    assertThat(filled.get(TaskKeys.ENV)).contains(Map.of("LR", "0.1"));
    assertThat(filled.get(TaskKeys.AFTER).orElseThrow().patterns()).containsExactly("prep-0.1");
  }

  @Test
  void aProblemIsPlacedUnderItsKeyAndInsideItsValue() {
    assertThatThrownBy(() -> TaskValues.read(Map.of("env", Map.of("1A", "x"))))
        .isInstanceOfSatisfying(InvalidValue.class, e -> assertThat(e.path()).isEqualTo("env.1A"));
    assertThatThrownBy(() -> TaskValues.read(Map.of("after", Map.of("tasks", List.of("a", List.of())))))
        .isInstanceOfSatisfying(InvalidValue.class, e -> assertThat(e.path()).isEqualTo("after.tasks[1]"));
    assertThatThrownBy(() -> TaskValues.read(Map.of("env", Map.of("X", "{y}"))).filled(text -> {
      throw new InvalidValue("no {y}");
    })).isInstanceOfSatisfying(InvalidValue.class, e -> assertThat(e.path()).isEqualTo("env.X"));
  }

  @Test
  void onlyTheKeysAGroupMaySetAreReadAndSet() {
    assertThat(TaskValues.read(Map.of("id", "a", "command", List.of("x")))).isEqualTo(TaskValues.NONE);
    assertThatThrownBy(() -> TaskValues.NONE.with(TaskKeys.ID, "a")).hasMessageContaining("not a setting a group");
    assertThat(TaskKeys.groupKeys()).extracting(TaskKey::key).doesNotContain("id", "command", "matrix", "java");
  }
}
