package dev.berth.slurm;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.gpu.ProcessCommandRunner;
import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;

/** The Slurm executor keeps the executor contract on the real cluster (skipped without one). */
class SlurmExecutorContractTest extends ExecutorContractTest {

  @BeforeAll
  static void clusterIsUp() {
    LocalCluster.assumeUp();
  }

  @Override
  protected Executor executor() {
    return new SlurmExecutor("contract", LocalCluster.SETTINGS, new ProcessCommandRunner(), id -> SlurmResources.DEFAULT);
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
