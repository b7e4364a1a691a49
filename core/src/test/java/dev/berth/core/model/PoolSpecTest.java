package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.berth.core.pool.WorkerScheme;
import dev.berth.core.settings.InvalidValue;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool's settings travel with its tasks as a mapping of plain values, and read back the same; the
 * line older journals hold in a task's environment reads back too.
 */
class PoolSpecTest {

  @Test
  void settingsReadBackFromTheLineTheyWrite() {
    PoolSpec spec = PoolSpec.builder("gpu").set(PoolKeys.SETUP, "model:load").set(PoolKeys.SIZE, 4)
        .set(PoolKeys.HWM, 2).set(PoolKeys.RECYCLE_AFTER, 100).set(PoolKeys.RECYCLE_MEMORY, 3L << 30)
        .set(PoolKeys.SCHEME, WorkerScheme.TWOBIN).set(PoolKeys.MEMORY, 1L << 30)
        .set(PoolKeys.GPU_MEMORY, 2L << 30).build();

    assertThat(spec.text()).isEqualTo("setup=model:load size=4 hwm=2 recycle-after=100 recycle-memory=3221225472"
        + " scheme=twobin memory=1073741824 gpu-memory=2147483648");
    assertThat(PoolSpec.parse("gpu", spec.text())).isEqualTo(spec);
    assertThat(PoolSpec.parse("p", PoolSpec.named("p").text())).isEqualTo(PoolSpec.named("p"));
  }

  @Test
  void theNameAndSettingsReadBackFromTheMappingTheyGive() {
    PoolSpec spec = PoolSpec.builder("gpu").set(PoolKeys.SETUP, "model:load").set(PoolKeys.SIZE, 4)
        .set(PoolKeys.HWM, 2).set(PoolKeys.RECYCLE_AFTER, 100).set(PoolKeys.RECYCLE_MEMORY, 3L << 30)
        .set(PoolKeys.SCHEME, WorkerScheme.TWOBIN).set(PoolKeys.MEMORY, 1L << 30)
        .set(PoolKeys.GPU_MEMORY, 2L << 30).build();

    assertThat(spec.settings()).containsExactly(Map.entry("gpu-memory", 2L << 30), Map.entry("hwm", 2),
        Map.entry("memory", 1L << 30), Map.entry("name", "gpu"), Map.entry("recycle-after", 100),
        Map.entry("recycle-memory", 3L << 30), Map.entry("scheme", "twobin"), Map.entry("setup", "model:load"),
        Map.entry("size", 4));
    assertThat(PoolSpec.PARSER.parse(spec.settings())).isEqualTo(spec);
    assertThat(PoolSpec.PARSER.parse(Map.of("name", "p"))).isEqualTo(PoolSpec.named("p"));
    assertThat(PoolSpec.PARSER.parse("p")).isEqualTo(PoolSpec.named("p"));
  }

  @Test
  void aMappingWithoutANameOrWithAKeyNoPoolHasIsRefused() {
    assertThat(refused(Map.of("size", 2)).path()).isEqualTo("name");
    assertThat(refused(Map.of("name", "p", "sise", 2)).rule()).contains("did you mean 'size'?");
    assertThat(refused(Map.of("name", "p", "size", -1)).path()).isEqualTo("size");
  }

  @Test
  void brokenSettingsAreRefused() {
    assertThatThrownBy(() -> PoolSpec.parse("p", "size=two")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PoolSpec.parse("p", "nonsense")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PoolSpec.builder("p").set(PoolKeys.HWM, -1)
        .set(PoolKeys.SCHEME, WorkerScheme.LRU).build()).hasMessageContaining("hwm");
  }

  private static InvalidValue refused(Map<String, ?> settings) {
    return catchThrowableOfType(InvalidValue.class, () -> PoolSpec.PARSER.parse(settings));
  }
}
