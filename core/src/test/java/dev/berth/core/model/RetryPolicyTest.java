package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryPolicyTest {

  private static Duration s(long seconds) {
    return Duration.ofSeconds(seconds);
  }

  @Test
  void theDelayGrowsByTheBackoffForEachFurtherRetry() {
    RetryPolicy p = new RetryPolicy(5, s(2), 3.0, Duration.ofHours(1));

    assertThat(p.delayBefore(1)).isEqualTo(s(2));
    assertThat(p.delayBefore(2)).isEqualTo(s(6));
    assertThat(p.delayBefore(3)).isEqualTo(s(18));
    assertThat(p.delayBefore(4)).isEqualTo(s(54));
  }

  @Test
  void aBackoffOfOneKeepsTheDelayConstant() {
    RetryPolicy p = new RetryPolicy(3, Duration.ofMillis(1500), 1.0, Duration.ofHours(1));

    for (int k = 1; k <= 10; k++) {
      assertThat(p.delayBefore(k)).as("retry %d", k).isEqualTo(Duration.ofMillis(1500));
    }
  }

  @Test
  void theDelayIsCappedAtTheMaximum() {
    RetryPolicy p = new RetryPolicy(10, s(1), 2.0, s(10));

    assertThat(p.delayBefore(4)).isEqualTo(s(8));
    assertThat(p.delayBefore(5)).isEqualTo(s(10));
    assertThat(p.delayBefore(50)).isEqualTo(s(10));
    assertThat(p.delayBefore(5000)).as("backoff^k overflows a double; still the cap").isEqualTo(s(10));
  }

  @Test
  void aFirstDelayAboveTheCapIsCappedToo() {
    assertThat(new RetryPolicy(1, Duration.ofMinutes(30), 2.0, Duration.ofMinutes(10)).delayBefore(1))
        .isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void theDefaultCapIsTenMinutesWhenOnlyTheOtherSettingsAreGiven() {
    TaskSpec t = TaskSpec.builder("t", "g").command("x")
        .set(TaskKeys.RETRIES, 6).set(TaskKeys.RETRY_DELAY, Duration.ofMinutes(1)).set(TaskKeys.RETRY_BACKOFF, 2.0).build();

    assertThat(t.retry().maxDelay()).isEqualTo(Duration.ofMinutes(10));
    assertThat(t.retry().delayBefore(4)).isEqualTo(Duration.ofMinutes(8));
    assertThat(t.retry().delayBefore(5)).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void theBuilderSettersKeepEachOther() {
    TaskSpec t = TaskSpec.builder("t", "g").command("x")
        .set(TaskKeys.RETRY_DELAY_MAX, s(30)).set(TaskKeys.RETRY_BACKOFF, 1.5).set(TaskKeys.RETRY_DELAY, s(4)).set(TaskKeys.RETRIES, 2).build();

    assertThat(t.retry()).isEqualTo(new RetryPolicy(2, s(4), 1.5, s(30)));
  }

  @Test
  void noRetriesIsTheDefault() {
    TaskSpec t = TaskSpec.builder("t", "g").command("x").build();

    assertThat(t.retry()).isEqualTo(RetryPolicy.NONE);
    assertThat(RetryPolicy.NONE.retries()).isZero();
    assertThat(RetryPolicy.NONE.delayBefore(1)).isEqualTo(Duration.ZERO);
  }

  @Test
  void aZeroDelayIsZeroForEveryRetry() {
    RetryPolicy p = new RetryPolicy(3, Duration.ZERO, 2.0, s(10));

    assertThat(p.delayBefore(1)).isZero();
    assertThat(p.delayBefore(3)).isZero();
  }

  @Test
  void negativeRetriesAreRejected() {
    assertThatThrownBy(() -> new RetryPolicy(-1, s(1), 2.0, s(10)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retries must be >= 0");
  }

  @Test
  void negativeDelaysAreRejected() {
    assertThatThrownBy(() -> new RetryPolicy(1, s(-1), 2.0, s(10))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RetryPolicy(1, s(1), 2.0, s(-10))).isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "backoff {0}")
  @ValueSource(doubles = {0.99, 0, -2, Double.NaN, Double.POSITIVE_INFINITY})
  void aBackoffBelowOneOrNotANumberIsRejected(double backoff) {
    assertThatThrownBy(() -> new RetryPolicy(1, s(1), backoff, s(10)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry-backoff");
  }
}
