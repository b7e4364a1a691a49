package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskSpecTest {

  @Test
  void aTaskThatSetsNothingAsksForOneCoreAndNoMemory() {
    TaskSpec t = TaskSpec.builder("a", "g").command("true").build();
    assertThat(t.id()).isEqualTo(TaskId.of("a"));
    assertThat(t.group()).isEqualTo("g");
    assertThat(t.resources()).isEqualTo(new Resources(0, 1000));
    assertThat(t.priority()).isZero();
    assertThat(t.env()).isEmpty();
    assertThat(t.params()).isEmpty();
  }

  @Test
  void aNulInsideAnArgumentOrAnEnvironmentValueIsRefusedNamingWhere() {
    assertThatThrownBy(() -> TaskSpec.builder("a", "g").command("echo", "a\0b").build())
        .isInstanceOf(dev.berth.core.settings.InvalidValue.class)
        .hasMessageStartingWith("task a: argument 1 holds a NUL character")
        .matches(e -> ((dev.berth.core.settings.InvalidValue) e).path().equals("command[1]"));
    assertThatThrownBy(() -> TaskSpec.builder("a", "g").command("true").env(Map.of("SEED", "1\0")).build())
        .hasMessageStartingWith("task a: environment variable SEED holds a NUL character")
        .matches(e -> ((dev.berth.core.settings.InvalidValue) e).path().equals("env.SEED"));
    assertThatThrownBy(() -> TaskSpec.builder("a", "g").command("true").env(Map.of("S\0X", "1")).build())
        .hasMessageContaining("holds a NUL character");
  }

  @Test
  void theBuilderSetsEveryField() {
    TaskSpec t = TaskSpec.builder("a", "g")
        .command("python", "train.py")
        .env(Map.of("B", "2", "A", "1"))
        .memoryBytes(512L << 20)
        .cpus(0.5)
        .priority(7)
        .params(Map.of("lr", "0.1"))
        .build();
    assertThat(t.command()).containsExactly("python", "train.py");
    assertThat(t.env()).containsExactly(Map.entry("A", "1"), Map.entry("B", "2"));
    assertThat(t.resources()).isEqualTo(new Resources(512L << 20, 500));
    assertThat(t.priority()).isEqualTo(7);
    assertThat(t.params()).containsExactly(Map.entry("lr", "0.1"));
  }

  @Test
  void anEmptyCommandIsRejectedNamingTheTask() {
    assertThatThrownBy(() -> TaskSpec.builder("a", "g").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task a")
        .hasMessageContaining("command");
  }

  @Test
  void theSpecIsACopyThatCannotBeChangedLater() {
    List<String> argv = new ArrayList<>(List.of("echo", "hi"));
    Map<String, String> env = new HashMap<>(Map.of("A", "1"));
    TaskSpec t = TaskSpec.builder("a", "g").command(argv).env(env).build();
    argv.add("more");
    assertThat(t.command()).containsExactly("echo", "hi");
    assertThatThrownBy(() -> t.command().add("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> t.env().put("B", "2")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> t.params().put("B", "2")).isInstanceOf(UnsupportedOperationException.class);
  }
}
