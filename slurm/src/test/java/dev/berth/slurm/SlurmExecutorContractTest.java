package dev.berth.slurm;

import dev.berth.os.ProcessCommandRunner;
import dev.berth.spi.Executor;
import dev.berth.testkit.ExecutorContractTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The Slurm executor keeps the executor contract on the real cluster (skipped without one). */
class SlurmExecutorContractTest extends ExecutorContractTest {

  @BeforeAll
  static void clusterIsUp() {
    LocalCluster.assumeUp();
  }

  @AfterEach
  void clearJobs() {
    LocalCluster.clearJobs();
  }

  @Override
  protected Executor executor() {
    return new SlurmExecutor("contract", LocalCluster.SLURM, LocalCluster.TUNING, new ProcessCommandRunner(),
        id -> SlurmResources.DEFAULT);
  }
}
