package dev.berth.runtime.pool;

import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;
import java.util.Set;

/** The pool executor keeps the executor contract for every attempt that is no pool call: it passes them on. */
class WorkerPoolExecutorContractTest extends ExecutorContractTest {

  @Override
  protected Executor executor() {
    return new WorkerPoolExecutor(new LocalProcessExecutor(), Set.of());
  }
}
