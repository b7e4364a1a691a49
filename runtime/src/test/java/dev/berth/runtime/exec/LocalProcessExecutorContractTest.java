package dev.berth.runtime.exec;

import dev.berth.core.model.TaskId;
import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;
import java.util.List;

/** The real executor keeps the executor contract, running small standard programs. */
class LocalProcessExecutorContractTest extends ExecutorContractTest {

  @Override
  protected Executor executor() {
    return new LocalProcessExecutor();
  }

  @Override
  protected List<String> exitingWith(int code) {
    return code == 0 ? List.of("true") : List.of("sh", "-c", "exit " + code);
  }

  @Override
  protected List<String> runningUntilTerminated() {
    return List.of("sleep", "1000");
  }

  @Override
  protected List<String> printingHelloAndErr() {
    return List.of("sh", "-c", "echo hello; echo err >&2");
  }

  @Override
  protected List<String> printingVariable(String name) {
    return List.of("printenv", name);
  }

  @Override
  protected List<String> printingWorkingDirectory() {
    return List.of("pwd");
  }

  @Override
  protected List<String> missingProgram(TaskId task) {
    return List.of("berth-no-such-program-" + task);
  }

  @Override
  protected boolean startsRealProcesses() {
    return true;
  }
}
