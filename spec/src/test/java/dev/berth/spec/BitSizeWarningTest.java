package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A memory size in bits is accepted, as fedflow accepts it, with a warning naming the byte spelling. */
class BitSizeWarningTest {

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
}
