package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private final Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(60));

  @Test
  void afterTheFirstQuickLookTheWaitStartsAtTheStepAndDoublesUpToTheMaximumAsSubmititDoes() {
    List<Long> waits = new ArrayList<>();
    waits.add(backoff.reset().toMillis());
    for (int i = 0; i < 8; i++) {
      waits.add(backoff.next(false).toMillis());
    }

    assertThat(waits).containsExactly(200L, 2_000L, 4_000L, 8_000L, 16_000L, 32_000L, 60_000L, 60_000L, 60_000L);
  }

  @Test
  void aChangeBringsTheWaitBackToTheStepAndAResetToTheInitialWait() {
    backoff.next(false);
    backoff.next(false);
    backoff.next(false);

    assertThat(backoff.next(true)).isEqualTo(Duration.ofSeconds(2));
    assertThat(backoff.next(false)).isEqualTo(Duration.ofSeconds(4));
    assertThat(backoff.reset()).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.next(false)).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void noWaitIsLongerThanTheMaximum() {
    Backoff short_ = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(2), Duration.ofSeconds(1));

    assertThat(short_.reset()).isEqualTo(Duration.ofMillis(200));
    assertThat(short_.next(false)).isEqualTo(Duration.ofSeconds(1));
    assertThat(short_.next(true)).isEqualTo(Duration.ofSeconds(1));
  }
}
