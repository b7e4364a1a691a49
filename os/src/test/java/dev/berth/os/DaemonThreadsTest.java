package dev.berth.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

  @Test
  void threadsAreDaemonsNamedOrNumbered() {
    ThreadFactory single = DaemonThreads.named("berth-x", false);
    ThreadFactory numbered = DaemonThreads.named("berth-y", true);

    assertThat(single.newThread(() -> { }).getName()).isEqualTo("berth-x");
    assertThat(numbered.newThread(() -> { }).getName()).isEqualTo("berth-y-1");
    assertThat(numbered.newThread(() -> { }).getName()).isEqualTo("berth-y-2");
    assertThat(single.newThread(() -> { }).isDaemon()).isTrue();
  }
}
