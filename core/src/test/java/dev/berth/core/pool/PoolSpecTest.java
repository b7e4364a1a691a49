package dev.berth.core.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A pool's settings travel with its call tasks as one line and read back the same. */
class PoolSpecTest {

  @Test
  void settingsReadBackFromTheLineTheyWrite() {
    PoolSpec spec = new PoolSpec("gpu", "model:load", 4, 2, 100, 3L << 30, WorkerScheme.TWOBIN, 1L << 30, 2L << 30);

    assertThat(spec.text()).isEqualTo("setup=model:load size=4 hwm=2 recycle-after=100 recycle-memory=3221225472"
        + " scheme=twobin memory=1073741824 gpu-memory=2147483648");
    assertThat(PoolSpec.parse("gpu", spec.text())).isEqualTo(spec);
    assertThat(PoolSpec.parse("p", PoolSpec.named("p").text())).isEqualTo(PoolSpec.named("p"));
  }

  @Test
  void brokenSettingsAreRefused() {
    assertThatThrownBy(() -> PoolSpec.parse("p", "size=two")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PoolSpec.parse("p", "nonsense")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PoolSpec("p", "", 0, -1, 0, 0, WorkerScheme.LRU)).hasMessageContaining("hwm");
  }
}
