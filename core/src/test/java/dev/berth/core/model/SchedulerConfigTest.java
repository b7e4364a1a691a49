package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SchedulerConfigTest {

  @Test
  void theDefaultsAreFedflowsExceptTheInterval() {
    SchedulerConfig c = SchedulerConfig.DEFAULTS;
    assertThat(c.maxProcess()).isEqualTo(20);
    assertThat(c.maxWaiting()).isEqualTo(10);
    assertThat(c.interval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(c.defaultMemoryBytes()).isEqualTo(2_000_000_000L);
    assertThat(c.cores()).as("0 = every logical CPU").isZero();
    assertThat(c.cpuUtilizationLimit()).isEqualTo(0.8);
    assertThat(c.memoryUtilizationLimit()).isEqualTo(0.8);
    assertThat(c.remainMemoryBytes()).isEqualTo(4_000_000_000L);
    assertThat(c.loadNretry()).isEqualTo(3);
    assertThat(c.trainNretry()).isEqualTo(3);
  }

  @Test
  void toBuilderKeepsEveryValue() {
    SchedulerConfig c = SchedulerConfig.builder()
        .maxProcess(3).maxWaiting(4).interval(Duration.ofMillis(250)).defaultMemoryBytes(5)
        .cores(6).cpuUtilizationLimit(0.5).memoryUtilizationLimit(0.9).remainMemoryBytes(7)
        .loadNretry(8).trainNretry(9).build();
    assertThat(c.toBuilder().build()).isEqualTo(c);
    assertThat(c.toBuilder().cores(2).build().cores()).isEqualTo(2);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        bad("scheduler.max-process", b -> b.maxProcess(-1)),
        bad("scheduler.max-waiting", b -> b.maxWaiting(-1)),
        bad("scheduler.interval", b -> b.interval(Duration.ZERO)),
        bad("scheduler.interval", b -> b.interval(Duration.ofSeconds(-1))),
        bad("scheduler.default-memory", b -> b.defaultMemoryBytes(-1)),
        bad("scheduler.cores", b -> b.cores(-1)),
        bad("utilization-limit.cpu", b -> b.cpuUtilizationLimit(0)),
        bad("utilization-limit.cpu", b -> b.cpuUtilizationLimit(1.01)),
        bad("utilization-limit.cpu", b -> b.cpuUtilizationLimit(Double.NaN)),
        bad("utilization-limit.memory", b -> b.memoryUtilizationLimit(0)),
        bad("utilization-limit.memory", b -> b.memoryUtilizationLimit(-0.5)),
        bad("remain-limit.memory", b -> b.remainMemoryBytes(-1)),
        bad("scheduler.load-nretry", b -> b.loadNretry(0)),
        bad("scheduler.train-nretry", b -> b.trainNretry(0)));
  }

  private static Arguments bad(String key, UnaryOperator<SchedulerConfig.Builder> change) {
    return Arguments.of(key, change);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsAnInvalidValueNamingTheConfigKey(String key, UnaryOperator<SchedulerConfig.Builder> change) {
    assertThatThrownBy(() -> change.apply(SchedulerConfig.builder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(key);
  }

  @Test
  void limitsOfExactlyOneAndZeroCountsAreAllowed() {
    SchedulerConfig c = SchedulerConfig.builder()
        .cpuUtilizationLimit(1).memoryUtilizationLimit(1).maxProcess(0).maxWaiting(0).remainMemoryBytes(0).build();
    assertThat(c.maxProcess()).isZero();
    assertThat(c.cpuUtilizationLimit()).isEqualTo(1.0);
  }
}
