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
        .set(SchedulerKeys.MAX_PROCESS, 3).set(SchedulerKeys.MAX_WAITING, 4)
        .set(SchedulerKeys.INTERVAL, Duration.ofMillis(250)).set(SchedulerKeys.DEFAULT_MEMORY, 5L)
        .set(SchedulerKeys.CORES, 6).set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5)
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.9).set(SchedulerKeys.REMAIN_MEMORY, 7L)
        .set(SchedulerKeys.LOAD_NRETRY, 8).set(SchedulerKeys.TRAIN_NRETRY, 9).build();
    assertThat(c.toBuilder().build()).isEqualTo(c);
    assertThat(c.toBuilder().set(SchedulerKeys.CORES, 2).build().cores()).isEqualTo(2);
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        bad("scheduler.max-process", b -> b.set(SchedulerKeys.MAX_PROCESS, -1)),
        bad("scheduler.max-waiting", b -> b.set(SchedulerKeys.MAX_WAITING, -1)),
        bad("scheduler.interval", b -> b.set(SchedulerKeys.INTERVAL, Duration.ZERO)),
        bad("scheduler.interval", b -> b.set(SchedulerKeys.INTERVAL, Duration.ofSeconds(-1))),
        bad("scheduler.default-memory", b -> b.set(SchedulerKeys.DEFAULT_MEMORY, -1L)),
        bad("scheduler.cores", b -> b.set(SchedulerKeys.CORES, -1)),
        bad("utilization-limit.cpu", b -> b.set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.0)),
        bad("utilization-limit.cpu", b -> b.set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.01)),
        bad("utilization-limit.cpu", b -> b.set(SchedulerKeys.CPU_UTILIZATION_LIMIT, Double.NaN)),
        bad("utilization-limit.memory", b -> b.set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.0)),
        bad("utilization-limit.memory", b -> b.set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, -0.5)),
        bad("remain-limit.memory", b -> b.set(SchedulerKeys.REMAIN_MEMORY, -1L)),
        bad("scheduler.load-nretry", b -> b.set(SchedulerKeys.LOAD_NRETRY, 0)),
        bad("scheduler.train-nretry", b -> b.set(SchedulerKeys.TRAIN_NRETRY, 0)));
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
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0).set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0)
        .set(SchedulerKeys.MAX_PROCESS, 0).set(SchedulerKeys.MAX_WAITING, 0)
        .set(SchedulerKeys.REMAIN_MEMORY, 0L).build();
    assertThat(c.maxProcess()).isZero();
    assertThat(c.cpuUtilizationLimit()).isEqualTo(1.0);
  }
}
