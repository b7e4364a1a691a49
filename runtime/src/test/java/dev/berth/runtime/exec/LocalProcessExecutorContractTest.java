package dev.berth.runtime.exec;

import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;

/** The real executor keeps the executor contract, running small standard programs. */
class LocalProcessExecutorContractTest extends ExecutorContractTest {

  @Override
  protected Executor executor() {
    return new LocalProcessExecutor();
  }
}
