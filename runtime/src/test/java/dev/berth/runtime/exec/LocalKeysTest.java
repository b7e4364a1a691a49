package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Setting;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalKeysTest {

  @Test
  void theKeysKeepTheirSchedulerNamesDefaultsAndJournalForm() {
    assertThat(LocalKeys.TABLE.settings()).extracting(Setting::key, Setting::type, Setting::defaultValue)
        .containsExactly(tuple("scheduler.enforce-memory", "true, false or auto", "auto"),
            tuple("scheduler.log-cap", "memory size", "1GiB"));
    assertThat(LocalKeys.TABLE.keys()).allMatch(ConfigKey::journaledWhenSet);
    assertThat(LocalKeys.TABLE.defaults()).isEqualTo(LocalSettings.DEFAULTS);
    assertThat(LocalKeys.TABLE.stored(LocalSettings.DEFAULTS)).as("nothing set, nothing journaled").isEmpty();
  }

  @Test
  void valuesAsWrittenBuildTheSettings() {
    assertThat(LocalKeys.TABLE.read(Map.of("scheduler.enforce-memory", "true", "scheduler.log-cap", "2MiB")))
        .isEqualTo(new LocalSettings(java.util.Optional.of(true), 2L << 20));
  }

  @Test
  void enforceMemoryLeftAtAutoIsNoChoiceWhileAnExplicitFalseIsOneAndIsJournaled() {
    LocalSettings auto = LocalKeys.TABLE.read(Map.of("scheduler.enforce-memory", "auto"));
    LocalSettings off = LocalKeys.TABLE.read(Map.of("scheduler.enforce-memory", false));

    assertThat(auto).isEqualTo(LocalSettings.DEFAULTS);
    assertThat(auto.enforceMemory()).isFalse();
    assertThat(off.enforceMemoryChoice()).contains(false);
    assertThat(LocalKeys.TABLE.stored(off)).containsEntry("scheduler.enforce-memory", false);
    assertThatThrownBy(() -> LocalKeys.TABLE.read(Map.of("scheduler.enforce-memory", "sometimes")))
        .hasMessageContaining("must be true, false or auto");
  }

  @Test
  void aLogCapBelowSixtyFourKibibytesIsRefusedAtItsKey() {
    assertThatThrownBy(() -> LocalKeys.TABLE.read(Map.of("scheduler.log-cap", "1KiB")))
        .isInstanceOfSatisfying(InvalidValue.class, e -> {
          assertThat(e.path()).isEqualTo("scheduler.log-cap");
          assertThat(e.rule()).contains("at least 64KiB");
        });
  }
}
