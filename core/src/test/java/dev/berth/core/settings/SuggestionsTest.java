package dev.berth.core.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {

  private static final List<String> TASK_KEYS = List.of("id", "command", "matrix", "env", "memory", "cpus", "priority", "after", "follow");

  @Test
  void aSwapOfNeighbouringLettersIsOneEdit() {
    assertThat(Suggestions.distance("memroy", "memory")).isEqualTo(1);
  }

  @Test
  void typosSuggestTheNearestKey() {
    assertThat(Suggestions.nearest("memroy", TASK_KEYS)).contains("memory");
    assertThat(Suggestions.nearest("cpu", TASK_KEYS)).contains("cpus");
    assertThat(Suggestions.nearest("comand", TASK_KEYS)).contains("command");
    assertThat(Suggestions.nearest("Priority", TASK_KEYS)).contains("priority");
  }

  @Test
  void aPrefixSuggestsTheKeyItStarts() {
    assertThat(Suggestions.nearest("mem", TASK_KEYS)).contains("memory");
  }

  @Test
  void aValidKeyWithAWordAddedSuggestsThatKeyRatherThanListingThemAll() {
    assertThat(Suggestions.unknownKey("follow-all", TASK_KEYS)).isEqualTo("unknown key 'follow-all'; did you mean 'follow'?");
  }

  @Test
  void somethingUnlikeAnyKeyListsTheValidKeysInstead() {
    assertThat(Suggestions.nearest("workers", TASK_KEYS)).isEmpty();
    assertThat(Suggestions.unknownKey("workers", TASK_KEYS))
        .isEqualTo("unknown key 'workers'; valid keys are: id, command, matrix, env, memory, cpus, priority, after, follow");
  }
}
