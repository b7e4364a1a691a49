package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BerthOptionsTest {

  @Test
  void theDefaultsAreAFreshNameUnderBerthOutTheDefaultConfigurationAndAutoGpus() {
    BerthOptions a = BerthOptions.defaults();
    BerthOptions b = BerthOptions.defaults();

    assertThat(a.name()).startsWith("session-").isNotEqualTo(b.name());
    assertThat(a.workdir()).isEqualTo(Path.of("berth-out", a.name()));
    assertThat(a.config()).isEqualTo(SchedulerConfig.DEFAULTS);
    assertThat(a.gpus()).isEqualTo("auto");
    assertThat(a.writeReports()).isTrue();
    assertThat(a.objective()).isEmpty();
  }

  @Test
  void setChangesOneKeyOfTheConfigurationGivenBeforeAsTheKeysRowReadsIt() {
    SchedulerConfig base = SchedulerConfig.builder().set(SchedulerKeys.MAX_WAITING, 3)
        .set(SchedulerKeys.SEED, 9L).build();

    BerthOptions o = BerthOptions.builder().name("s").config(base).set("scheduler.max-process", 2)
        .set("scheduler.cores", 8).set("scheduler.interval", Duration.ofMillis(250))
        .set("scheduler.default-memory", "1GiB").set("scheduler.default-cuda-memory", "2GiB")
        .set("utilization-limit.cpu", 0.5).set("utilization-limit.memory", 0.9).set("remain-limit.memory", "1GB")
        .set("scheduler.placement", "first-fit").set("scheduler.max-waiting", 4).build();

    assertThat(o.config()).isEqualTo(base.toBuilder().set(SchedulerKeys.MAX_PROCESS, 2).set(SchedulerKeys.CORES, 8)
        .set(SchedulerKeys.INTERVAL, Duration.ofMillis(250))
        .set(SchedulerKeys.DEFAULT_MEMORY, 1L << 30).set(SchedulerKeys.DEFAULT_CUDA_MEMORY, 2L << 30)
        .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 0.5)
        .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 0.9).set(SchedulerKeys.REMAIN_MEMORY, 1_000_000_000L)
        .set(SchedulerKeys.PLACEMENT, PlacementPolicyName.FIRST_FIT).set(SchedulerKeys.MAX_WAITING, 4).build());
    assertThat(o.workdir()).isEqualTo(Path.of("berth-out", "s"));
  }

  @Test
  void buildStatesTheRuleThatAnOptionBreaks() {
    assertThatThrownBy(() -> BerthOptions.builder().name("my session").build())
        .hasMessage("session name 'my session' must match [A-Za-z0-9._-]+ (and not be . or ..), at most 255 characters");
    assertThatThrownBy(() -> BerthOptions.builder().set("scheduler.max-process", -1).build())
        .hasMessage("scheduler.max-process must be a whole number >= 0 but was -1");
    assertThatThrownBy(() -> BerthOptions.builder().set("utilization-limit.cpu", 1.5).build())
        .hasMessageContaining("utilization-limit.cpu must be a fraction in (0, 1]");
    assertThatThrownBy(() -> BerthOptions.builder().gpus("two").build())
        .hasMessageStartingWith("gpus: 'two' is not a GPU selection");
    assertThatThrownBy(() -> BerthOptions.builder().set("scheduler.placement", "nearest").build())
        .hasMessageStartingWith("scheduler.placement").hasMessageContaining("nearest");
    assertThatThrownBy(() -> BerthOptions.builder().set("scheduler.default-memory", "much"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void simulatedGpusAreAValidSelection() {
    assertThat(BerthOptions.builder().gpus("sim:2x24GiB").build().gpus()).isEqualTo("sim:2x24GiB");
    assertThat(BerthOptions.builder().gpus("0,2").build().gpus()).isEqualTo("0,2");
  }
}
