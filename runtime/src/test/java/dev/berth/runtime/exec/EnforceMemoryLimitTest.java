package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.runtime.contain.Container;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A task's or group's enforce-memory beats scheduler.enforce-memory when an attempt's cgroup is limited. */
class EnforceMemoryLimitTest {

  private static final long GIB = 1L << 30;

  /** Process-tree containers, but answering as a cgroup that can limit memory would. */
  private static final class LimitingContainment implements TaskContainment {
    private final TaskContainment trees = TaskContainment.processTrees();

    @Override
    public String mode() {
      return "limiting";
    }

    @Override
    public String describe() {
      return "limiting, for tests";
    }

    @Override
    public boolean limitsMemory() {
      return true;
    }

    @Override
    public Container open(String name, long memoryLimitBytes) throws java.io.IOException {
      return trees.open(name, 0);
    }
  }

  private static LaunchRequest request(Optional<Boolean> enforceMemory) {
    Path dir = Path.of("unused");
    return new LaunchRequest(TaskId.of("t"), 1, List.of("true"), new TreeMap<>(), dir, dir.resolve("out"),
        dir.resolve("err")).withReservation(Placement.cpu(2 * GIB, 1000), 0).withEnforceMemory(enforceMemory);
  }

  private static long limitOf(TaskContainment containment, boolean configured, Optional<Boolean> task) {
    LocalProcessExecutor executor =
        new LocalProcessExecutor(containment, Duration.ofSeconds(1),
            LocalSettings.builder().enforceMemory(configured).logCapBytes(1L << 20).build(), Set.of());
    try {
      return executor.memoryLimitOf(request(task));
    } finally {
      executor.close();
    }
  }

  @Test
  void aTaskWithEnforceMemoryIsLimitedWhenTheConfigHasItOff() {
    assertThat(limitOf(new LimitingContainment(), false, Optional.of(true)))
        .isEqualTo(LocalProcessExecutor.memoryLimit(2 * GIB));
  }

  @Test
  void aTaskThatTurnsEnforceMemoryOffIsNotLimitedWhenTheConfigHasItOn() {
    assertThat(limitOf(new LimitingContainment(), true, Optional.of(false))).isZero();
  }

  @Test
  void aTaskThatSaysNothingFollowsTheConfig() {
    assertThat(limitOf(new LimitingContainment(), true, Optional.empty()))
        .isEqualTo(LocalProcessExecutor.memoryLimit(2 * GIB));
    assertThat(limitOf(new LimitingContainment(), false, Optional.empty())).isZero();
  }

  @Test
  void noAttemptIsLimitedWhereTheContainmentCannotLimitMemory() {
    assertThat(limitOf(TaskContainment.processTrees(), true, Optional.of(true))).isZero();
  }
}
