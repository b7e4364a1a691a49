package dev.berth.runtime.exec;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;

/** The executor keeps the executor contract starting processes with posix_spawn, where this machine's C library has it. */
class NativeSpawnerContractTest extends ExecutorContractTest {

  @BeforeAll
  static void nativeSpawning() {
    assumeTrue(NativeSpawner.supported(), "posix_spawn with closefrom and pidfds (glibc 2.34, Linux 5.3)");
  }

  @Override
  protected Executor executor() {
    return new LocalProcessExecutor(NativeSpawner.available().orElseThrow(), TaskContainment.detect(),
        Duration.ofSeconds(1), LocalSettings.DEFAULTS, Set.of());
  }
}
