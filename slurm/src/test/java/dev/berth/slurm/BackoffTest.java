package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void theWaitDoublesWhileNothingChangesUpToTheMaximum() {
    Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5));
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      waits.add(backoff.next(false).toMillis());
    }

    assertThat(waits).containsExactly(400L, 800L, 1600L, 3200L, 5000L, 5000L, 5000L);
  }

  @Test
  void aChangeOrAResetStartsAgainFromTheInitialWait() {
    Backoff backoff = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(5));
    backoff.next(false);
    backoff.next(false);

    assertThat(backoff.next(true)).isEqualTo(Duration.ofMillis(200));
    backoff.next(false);
    assertThat(backoff.reset()).isEqualTo(Duration.ofMillis(200));
    assertThat(backoff.next(false)).isEqualTo(Duration.ofMillis(400));
  }
}
