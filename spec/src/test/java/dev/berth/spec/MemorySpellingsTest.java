package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory size in bits is accepted, as fedflow accepts it, with a warning naming the byte spelling; a
 * bare number of bytes too small to be meant is refused.
 */
class MemorySpellingsTest {

  @TempDir Path dir;

  @Test
  void aMemorySizeInBitsIsReadAsBitsWithAWarningNamingTheField() throws SpecException {
    Path spec = SpecFiles.write(dir, "spec.yaml", "config: {scheduler: {default-memory: 1Gib}}\n"
        + SpecFiles.oneGroup("- {id: a, command: [x], memory: 2Gb}\n- {id: b, command: [x], memory: 2GB}"));

    SpecLoader.Loaded loaded = SpecLoader.read(spec, null, List.of(), List.of());

    assertThat(loaded.run().tasks().get(0).resources().memoryBytes()).isEqualTo(250_000_000L);
    assertThat(loaded.warnings()).containsExactly(
        spec + ": config.scheduler.default-memory: '1Gib' is in bits, 128 MiB; write 1GiB for bytes",
        spec + ": groups[0].tasks[0].memory: '2Gb' is in bits, 238.4 MiB; write 2GB or 2GiB for bytes");
  }

  @Test
  void sizesInBytesAndOtherKeysGiveNoWarning() throws SpecException {
    Path spec = SpecFiles.write(dir, "spec.yaml",
        SpecFiles.oneGroup("- {id: a, command: [x, 2Gb], memory: 2GiB, gpu-memory: 512MB, env: {SIZE: 2Gb}}"));

    assertThat(SpecLoader.read(spec, null, List.of(), List.of()).warnings()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"memory: 512", "gpu-memory: 10", "gpu-memory: '10'"})
  void aBareNumberOfBytesBelowOneMebibyteForATaskIsRefusedWithTheUnitLikelyMeant(String setting) {
    Path spec = SpecFiles.write(dir, "spec.yaml", SpecFiles.oneGroup("- {id: a, command: [x], " + setting + "}"));
    String key = setting.substring(0, setting.indexOf(':'));
    String number = setting.replaceAll("[^0-9]", "");

    assertThatThrownBy(() -> SpecLoader.read(spec, null, List.of(), List.of()))
        .isInstanceOf(SpecException.class)
        .hasMessage(spec + ": groups[0].tasks[0]." + key + ": '" + number + "' would reserve " + number
            + " bytes (a bare number counts bytes); did you mean " + number + "GiB?");
  }

  @Test
  void aGroupsBareNumberOfBytesIsRefusedToo() {
    Path spec = SpecFiles.write(dir, "spec.yaml",
        "name: r\ngroups:\n  - name: g\n    gpu-memory: 10\n    tasks: [{id: a, command: [x]}]\n");

    assertThatThrownBy(() -> SpecLoader.read(spec, null, List.of(), List.of()))
        .hasMessageContaining("groups[0].gpu-memory: '10' would reserve 10 bytes");
  }

  @Test
  void zeroALargeBareNumberAUnitAndTheConfigsOwnBytesAreAccepted() throws SpecException {
    Path spec = SpecFiles.write(dir, "spec.yaml", "config: {remain-limit: {memory: 1000}}\n"
        + SpecFiles.oneGroup("- {id: a, command: [x], memory: 0}\n- {id: b, command: [x], memory: 2000000000}\n"
        + "- {id: c, command: [x], memory: 10KiB}"));

    assertThat(SpecLoader.read(spec, null, List.of(), List.of()).run().tasks()).hasSize(3);
  }
}
