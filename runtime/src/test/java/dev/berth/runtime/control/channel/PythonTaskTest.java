package dev.berth.runtime.control.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the Python helper's demo task against a real control server. */
class PythonTaskTest {

  private static final TaskId TASK = TaskId.of("demo");

  private static Path demo;

  @TempDir Path dir;

  private final Recorder recorder = new Recorder();
  private ControlServer server;
  private Process process;

  @BeforeAll
  static void findPythonAndTheDemo() throws Exception {
    assumeTrue(pythonAvailable(), "python3 is not on the PATH");
    // Maven runs tests in the module folder; an IDE may run them in the repository root.
    Path fromModule = Path.of("..", "examples", "python", "two_stage_demo.py");
    demo = (Files.exists(fromModule) ? fromModule : Path.of("examples", "python", "two_stage_demo.py")).toAbsolutePath();
    assertThat(demo).exists();
  }

  private static boolean pythonAvailable() throws InterruptedException {
    try {
      Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(FakeTask.WAIT_SECONDS, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  @BeforeEach
  void open() throws Exception {
    server = ControlServer.open(ControlSocketPath.forRun(dir), recorder);
  }

  @AfterEach
  void close() {
    if (process != null) {
      process.destroyForcibly();
    }
    server.close();
  }

  @Test
  void thePythonDemoLoadsTrainsAndExitsWithZero() throws Exception {
    start(Map.of("BERTH_PARAM_SEED", "7"));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Hello(process.pid()));

    server.send(TASK, ControlCommand.load());
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.LOADING));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Item("samples", 2000));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.WAITING));

    server.send(TASK, ControlCommand.train("cuda:1"));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.TRAINING));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Item("progress", Map.of("fitted", true)));
    TaskMessage.Result result = (TaskMessage.Result) recorder.nextMessage(TASK, 1);
    assertThat(result.result()).containsEntry("device", "cuda:1").containsEntry("trains", 1).containsKey("slope");
    assertThat((Double) result.result().get("slope")).isBetween(2.9, 3.1);
    assertThat(recorder.nextMessage(TASK, 1)).isInstanceOf(TaskMessage.Finished.class);

    server.send(TASK, ControlCommand.exit());
    assertThat(exitCode()).isZero();
    assertThat(recorder.next()).isInstanceOf(Recorder.Disconnected.class);
  }

  @Test
  void aCudaOutOfMemoryKeepsTheLoadedStateForASecondTrain() throws Exception {
    start(Map.of("BERTH_DEMO_OOM_ONCE", "1"));
    recorder.nextMessage(TASK, 1);
    server.send(TASK, ControlCommand.load());
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.LOADING));
    recorder.nextMessage(TASK, 1); // the samples item
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.WAITING));
    server.send(TASK, ControlCommand.train("cuda:0"));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.TRAINING));

    TaskMessage oom = recorder.nextMessage(TASK, 1);

    assertThat(oom).isEqualTo(new TaskMessage.Oom(Stage.TRAIN,
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (demo)"));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.WAITING));
    server.send(TASK, ControlCommand.train("cuda:2"));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.TRAINING));
    recorder.nextMessage(TASK, 1); // the progress item
    TaskMessage.Result result = (TaskMessage.Result) recorder.nextMessage(TASK, 1);
    assertThat(result.result()).containsEntry("device", "cuda:2").containsEntry("trains", 2);
    assertThat(recorder.nextMessage(TASK, 1)).isInstanceOf(TaskMessage.Finished.class);
    server.send(TASK, ControlCommand.exit());
    assertThat(exitCode()).isZero();
  }

  @Test
  void anExceptionIsReportedWithItsTracebackAndThePythonTaskExitsWithThree() throws Exception {
    start(Map.of("BERTH_DEMO_FAIL", "1"));
    recorder.nextMessage(TASK, 1);
    server.send(TASK, ControlCommand.load());
    recorder.nextMessage(TASK, 1); // LOADING
    recorder.nextMessage(TASK, 1); // the samples item
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.WAITING));
    server.send(TASK, ControlCommand.train("cpu"));
    assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.TRAINING));

    TaskMessage.Failure failure = (TaskMessage.Failure) recorder.nextMessage(TASK, 1);
    assertThat(failure.stage()).isEqualTo(Stage.TRAIN);
    assertThat(failure.message()).isEqualTo("ValueError: demo failure on purpose");
    assertThat(failure.traceback()).startsWith("Traceback").contains("two_stage_demo.py").contains("in train");
    server.send(TASK, ControlCommand.exit());
    assertThat(exitCode()).isEqualTo(3);
  }

  @Test
  void runByHandTheDemoPrintsItsResult() throws Exception {
    Path out = dir.resolve("stdout.log");
    process = new ProcessBuilder("python3", demo.toString()).redirectOutput(out.toFile())
        .redirectError(dir.resolve("stderr.log").toFile()).start();

    assertThat(exitCode()).isZero();
    assertThat(Files.readString(out)).startsWith("{\"slope\":").contains("\"device\":\"cpu\"");
  }

  private void start(Map<String, String> extraEnv) throws IOException {
    String token = server.register(TASK, 1);
    ProcessBuilder builder = new ProcessBuilder("python3", demo.toString())
        .directory(dir.toFile())
        .redirectOutput(dir.resolve("stdout.log").toFile())
        .redirectError(dir.resolve("stderr.log").toFile());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(k -> k.startsWith("BERTH_"));
    env.put("PYTHONDONTWRITEBYTECODE", "1"); // keep the source tree clean
    env.put("BERTH_CONTROL", server.socketPath().toString());
    env.put("BERTH_TASK_ID", TASK.value());
    env.put("BERTH_TOKEN", token);
    env.put("BERTH_TASK_DIR", dir.toString());
    env.put("BERTH_ATTEMPT", "1");
    env.putAll(extraEnv);
    process = builder.start();
  }

  private int exitCode() throws Exception {
    assertThat(process.waitFor(FakeTask.WAIT_SECONDS, TimeUnit.SECONDS))
        .as("python exited; stderr:%n%s", stderr()).isTrue();
    return process.exitValue();
  }

  private String stderr() throws IOException {
    Path err = dir.resolve("stderr.log");
    return Files.exists(err) ? Files.readString(err) : "";
  }
}
