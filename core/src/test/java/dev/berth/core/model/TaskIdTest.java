package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class TaskIdTest {

  @ParameterizedTest
  @ValueSource(strings = {"a", "train-1", "lr=0.1,bs=32", "x_y.z", "user@host", "a+b", "..."})
  void acceptsFolderSafeNames(String value) {
    assertThat(TaskId.of(value).value()).isEqualTo(value);
    assertThat(TaskId.of(value)).hasToString(value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ".", "..", "a/b", "a\\b", "a b", "a:b", "ä", "$HOME", "a\nb"})
  void rejectsNamesThatAreNotSafeAsAFolderName(String value) {
    assertThatThrownBy(() -> TaskId.of(value))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'" + value + "'");
  }

  @ParameterizedTest
  @NullSource
  void rejectsNull(String value) {
    assertThatThrownBy(() -> new TaskId(value)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void idsAreEqualByValueAndSortByValue() {
    assertThat(TaskId.of("a")).isEqualTo(new TaskId("a")).hasSameHashCodeAs(TaskId.of("a"));
    List<TaskId> ids = new ArrayList<>(List.of(TaskId.of("b"), TaskId.of("a10"), TaskId.of("a2")));
    Collections.sort(ids);
    assertThat(ids).extracting(TaskId::value).containsExactly("a10", "a2", "b");
  }
}
