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
    assertThat(TaskId.of("a")).isEqualTo(new TaskId("a")).hasSameHashCodeAs(TaskId.of("a"))
        .isNotEqualTo(TaskId.of("b")).isNotEqualTo("a");
    List<TaskId> ids = new ArrayList<>(List.of(TaskId.of("b"), TaskId.of("a10"), TaskId.of("a2")));
    Collections.sort(ids);
    assertThat(ids).extracting(TaskId::value).containsExactly("a10", "a2", "b");
  }

  @Test
  void anIdIsAcceptedExactlyWhenItMatchesTheDocumentedPattern() {
    java.util.regex.Pattern rule = java.util.regex.Pattern.compile("[A-Za-z0-9._+=@,-]+");
    String alphabet = "aZ09._+=@,-/ :\u00e4\u0660$*\n\t~`!#%^&()[]{}|;'\"<>?";
    java.util.Random random = new java.util.Random(17);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder id = new StringBuilder();
      for (int n = random.nextInt(6); n > 0; n--) {
        id.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String value = id.toString();
      boolean expected = rule.matcher(value).matches() && !value.equals(".") && !value.equals("..");
      boolean accepted;
      try {
        TaskId.of(value);
        accepted = true;
      } catch (IllegalArgumentException e) {
        accepted = false;
      }
      assertThat(accepted).as("'%s'", value).isEqualTo(expected);
    }
  }
}
