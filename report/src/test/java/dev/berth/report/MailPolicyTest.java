package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MailPolicyTest {

  private static final Instant T = SampleRun.T0;

  @Test
  void aSecondMailOfTheSameKindWaitsForTheMinimumInterval() {
    MailPolicy p = new MailPolicy(Duration.ofHours(1), 10);

    assertThat(p.tryAcquire(MailKind.GROUP, T)).isEmpty();
    assertThat(p.tryAcquire(MailKind.GROUP, T.plus(Duration.ofMinutes(59))))
        .hasValue("smtp.min-interval: the last group mail went 59m00s ago, less than 1h00m");
    assertThat(p.tryAcquire(MailKind.GROUP, T.plus(Duration.ofHours(1)))).isEmpty();
  }

  @Test
  void kindsAreSpacedOutSeparately() {
    MailPolicy p = new MailPolicy(Duration.ofHours(1), 10);

    assertThat(p.tryAcquire(MailKind.GROUP, T)).isEmpty();
    assertThat(p.tryAcquire(MailKind.RUN, T.plusSeconds(1))).isEmpty();
  }

  @Test
  void noMoreThanMaxNumbersMailsGoInARun() {
    MailPolicy p = new MailPolicy(Duration.ZERO, 2);

    assertThat(p.tryAcquire(MailKind.GROUP, T)).isEmpty();
    assertThat(p.tryAcquire(MailKind.GROUP, T)).isEmpty();
    assertThat(p.tryAcquire(MailKind.RUN, T.plusSeconds(5)))
        .hasValue("smtp.max-numbers reached: 2 mails already sent in this run");
    assertThat(p.sent()).isEqualTo(2);
  }

  @Test
  void zeroMaxNumbersMeansNoLimit() {
    MailPolicy p = new MailPolicy(Duration.ZERO, 0);

    for (int i = 0; i < 50; i++) {
      assertThat(p.tryAcquire(MailKind.GROUP, T.plusSeconds(i))).isEmpty();
    }
  }

  @Test
  void aRefusalTakesNoPlaceAndCheckingChangesNothing() {
    MailPolicy p = new MailPolicy(Duration.ofMinutes(10), 10);
    p.tryAcquire(MailKind.GROUP, T);

    p.tryAcquire(MailKind.GROUP, T.plusSeconds(60));
    assertThat(p.refusal(MailKind.GROUP, T.plus(Duration.ofMinutes(10)))).isEmpty();
    assertThat(p.sent()).isEqualTo(1);
  }

  @Test
  void negativeSettingsAreRejected() {
    assertThatThrownBy(() -> new MailPolicy(Duration.ofSeconds(-1), 1)).hasMessageContaining("smtp.min-interval");
    assertThatThrownBy(() -> new MailPolicy(Duration.ZERO, -1)).hasMessageContaining("smtp.max-numbers");
  }
}
