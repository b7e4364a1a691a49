package dev.berth.testkit;

import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.LaunchRequest;
import java.util.List;

/** The fake executor keeps the executor contract, acting out each program of the vocabulary. */
class FakeExecutorContractTest extends ExecutorContractTest {

  private FakeExecutor fake;

  @Override
  protected Executor executor() {
    fake = new FakeExecutor();
    return fake;
  }

  @Override
  protected List<String> exitingWith(int code) {
    return List.of("exit", Integer.toString(code));
  }

  @Override
  protected List<String> runningUntilTerminated() {
    return List.of("run-until-terminated");
  }

  @Override
  protected List<String> printingHelloAndErr() {
    return List.of("print-hello-and-err");
  }

  @Override
  protected List<String> printingVariable(String name) {
    return List.of("print-variable", name);
  }

  @Override
  protected List<String> printingWorkingDirectory() {
    return List.of("print-working-directory");
  }

  @Override
  protected List<String> missingProgram(TaskId task) {
    fake.failLaunchOf(task, "cannot start 'no-such-program': no such file");
    return List.of("no-such-program");
  }

  @Override
  protected boolean startsRealProcesses() {
    return false;
  }

  @Override
  protected void play(LaunchRequest request, Execution execution) {
    TaskId task = request.task();
    List<String> command = request.command();
    switch (command.get(0)) {
      case "exit" -> fake.exit(task, Integer.parseInt(command.get(1)));
      case "print-hello-and-err" -> {
        fake.writeOutput(task, "hello\n", "err\n");
        fake.exit(task, 0);
      }
      case "print-variable" -> {
        fake.writeOutput(task, request.env().get(command.get(1)) + "\n", "");
        fake.exit(task, 0);
      }
      case "print-working-directory" -> {
        fake.writeOutput(task, request.workdir().toAbsolutePath() + "\n", "");
        fake.exit(task, 0);
      }
      default -> {
        // runs until terminated
      }
    }
  }
}
