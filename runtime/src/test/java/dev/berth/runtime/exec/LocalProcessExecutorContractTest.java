package dev.berth.runtime.exec;

import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;
import java.time.Duration;
import java.util.Set;

/** The executor keeps the executor contract starting processes with ProcessBuilder, running small standard programs. */
class LocalProcessExecutorContractTest extends ExecutorContractTest {

  @Override
  protected Executor executor() {
    return new LocalProcessExecutor(new JdkSpawner(), TaskContainment.detect(), Duration.ofSeconds(1), LocalSettings.DEFAULTS, Set.of());
  }
}
