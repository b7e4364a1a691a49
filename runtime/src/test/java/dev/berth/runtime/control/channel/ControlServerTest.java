package dev.berth.runtime.control.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.Stage;
import dev.berth.protocol.TaskMessage;
import dev.berth.protocol.TaskPhase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ControlServerTest {

  private static final TaskId TASK = TaskId.of("train-1");

  @TempDir Path runDir;

  private final Recorder recorder = new Recorder();
  private ControlServer server;

  @BeforeEach
  void open() throws Exception {
    server = ControlServer.open(ControlSocketPath.forRun(runDir), recorder);
  }

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void aTaskLoadsTrainsReportsAndExits() throws Exception {
    String token = server.register(TASK, 1);
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, token);
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Hello(4242));

      server.send(TASK, ControlCommand.load());
      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Load());
      task.say(new TaskMessage.Status(TaskPhase.LOADING));
      task.say(new TaskMessage.Status(TaskPhase.WAITING));
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.LOADING));
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.WAITING));

      server.send(TASK, ControlCommand.train("cuda:1"));
      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Train("cuda:1"));
      task.say(new TaskMessage.Status(TaskPhase.TRAINING));
      task.say(new TaskMessage.Item("round", 3));
      task.say(new TaskMessage.Result(Map.of("accuracy", 0.93)));
      task.say(new TaskMessage.Finished(120, 3400));
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Status(TaskPhase.TRAINING));
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Item("round", 3));
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Result(Map.of("accuracy", 0.93)));
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Finished(120, 3400));

      server.send(TASK, ControlCommand.exit());
      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Exit());
    }
    assertThat(recorder.next()).isInstanceOfSatisfying(Recorder.Disconnected.class, d -> {
      assertThat(d.task()).isEqualTo(TASK);
      assertThat(d.attempt()).isEqualTo(1);
    });
  }

  @Test
  void anOutOfMemoryInTrainIsFollowedByASecondTrainOnAnotherDevice() throws Exception {
    String token = server.register(TASK, 2);
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, token);
      recorder.nextMessage(TASK, 2);
      server.send(TASK, ControlCommand.train("cuda:0"));
      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Train("cuda:0"));
      task.say(new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory"));
      task.say(new TaskMessage.Status(TaskPhase.WAITING));
      assertThat(recorder.nextMessage(TASK, 2)).isEqualTo(new TaskMessage.Oom(Stage.TRAIN, "CUDA out of memory"));
      assertThat(recorder.nextMessage(TASK, 2)).isEqualTo(new TaskMessage.Status(TaskPhase.WAITING));

      server.send(TASK, ControlCommand.train("cuda:3"));

      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Train("cuda:3"));
      task.say(new TaskMessage.Finished(5, 6));
      assertThat(recorder.nextMessage(TASK, 2)).isEqualTo(new TaskMessage.Finished(5, 6));
    }
  }

  @Test
  void commandsSentBeforeTheHelloAreDeliveredAfterItInOrder() throws Exception {
    String token = server.register(TASK, 1);
    server.send(TASK, ControlCommand.load());
    server.send(TASK, ControlCommand.train("cpu"));
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, token);
      server.send(TASK, ControlCommand.exit());

      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Load());
      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Train("cpu"));
      assertThat(task.nextCommand()).isEqualTo(new ControlCommand.Exit());
    }
  }

  @Test
  void aHelloWithAWrongTokenIsRejectedAndTheConnectionClosed() throws Exception {
    String token = server.register(TASK, 1);
    server.send(TASK, ControlCommand.load());
    try (FakeTask intruder = FakeTask.connect(server.socketPath())) {
      intruder.hello(TASK, "0".repeat(32));
      assertThat(recorder.nextProblem()).contains("wrong token").contains("train-1");
      intruder.awaitClosed();
    }
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, token);
      assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Hello(4242));
      assertThat(task.nextCommand()).as("the command kept for the real task").isEqualTo(new ControlCommand.Load());
    }
  }

  @Test
  void aHelloFromAnUnregisteredTaskIsRejected() throws Exception {
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, "abc");
      assertThat(recorder.nextProblem()).contains("not registered");
      task.awaitClosed();
    }
  }

  @Test
  void aFirstLineThatIsNotAHelloIsRejected() throws Exception {
    server.register(TASK, 1);
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.say(new TaskMessage.Status(TaskPhase.LOADING));
      assertThat(recorder.nextProblem()).contains("not a valid hello");
      task.awaitClosed();
    }
  }

  @Test
  void aHelloWithAnotherProtocolVersionIsRejected() throws Exception {
    String token = server.register(TASK, 1);
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.send("{\"type\":\"hello\",\"task\":\"train-1\",\"token\":\"" + token + "\",\"protocol\":2,\"pid\":1}");
      assertThat(recorder.nextProblem()).contains("protocol 2");
      task.awaitClosed();
    }
  }

  @Test
  void aSecondConnectionForTheSameAttemptIsRejected() throws Exception {
    String token = server.register(TASK, 1);
    try (FakeTask first = FakeTask.connect(server.socketPath());
        FakeTask second = FakeTask.connect(server.socketPath())) {
      first.hello(TASK, token);
      recorder.nextMessage(TASK, 1);
      second.hello(TASK, token);
      assertThat(recorder.nextProblem()).contains("second connection");
      assertThat(recorder.next()).isEqualTo(new Recorder.Broken(TASK, 1, "connected a second time"));
      second.awaitClosed();
      assertThat(server.isConnected(TASK)).as("the first connection stays").isTrue();
    }
  }

  @Test
  void aMalformedLineIsReportedAndClosesTheConnection() throws Exception {
    String token = server.register(TASK, 1);
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, token);
      recorder.nextMessage(TASK, 1);
      task.send("{\"type\":\"status\",\"status\":\"DANCING\"}");

      assertThat(recorder.nextProblem()).contains("malformed").contains("DANCING");
      assertThat(recorder.next()).isInstanceOfSatisfying(Recorder.Broken.class,
          b -> assertThat(b.reason()).startsWith("sent a malformed line (").contains("DANCING"));
      task.awaitClosed();
      assertThat(recorder.next()).isInstanceOf(Recorder.Disconnected.class);
      assertThat(server.isConnected(TASK)).isFalse();
    }
  }

  @Test
  void aDisconnectionIsReportedOnce() throws Exception {
    String token = server.register(TASK, 1);
    FakeTask task = FakeTask.connect(server.socketPath());
    assertThat(server.isConnected(TASK)).as("before its hello").isFalse();
    task.hello(TASK, token);
    recorder.nextMessage(TASK, 1);
    assertThat(server.isConnected(TASK)).isTrue();

    task.close();

    Recorder.Event event = recorder.next();
    assertThat(event).isInstanceOf(Recorder.Disconnected.class);
    Recorder.awaitEnd(((Recorder.Disconnected) event).thread());
    assertThat(server.isConnected(TASK)).isFalse();
    server.send(TASK, ControlCommand.exit());
    server.forget(TASK);
    assertThat(recorder.all()).filteredOn(e -> e instanceof Recorder.Disconnected).hasSize(1);
    assertThat(recorder.all()).filteredOn(e -> e instanceof Recorder.Problem).isEmpty();
  }

  @Test
  void forgetClosesTheConnectionWithoutReportingADisconnection() throws Exception {
    String token = server.register(TASK, 1);
    try (FakeTask task = FakeTask.connect(server.socketPath())) {
      task.hello(TASK, token);
      Recorder.Message hello = (Recorder.Message) recorder.next();

      server.forget(TASK);

      task.awaitClosed();
      Recorder.awaitEnd(hello.thread());
      assertThat(recorder.all()).containsExactly(hello);
    }
  }

  @Test
  void registeringAgainReplacesTheTokenAndClosesTheOldConnection() throws Exception {
    String first = server.register(TASK, 1);
    try (FakeTask old = FakeTask.connect(server.socketPath())) {
      old.hello(TASK, first);
      Recorder.Message hello = (Recorder.Message) recorder.next();

      String second = server.register(TASK, 2);

      assertThat(second).hasSize(32).isNotEqualTo(first);
      old.awaitClosed();
      Recorder.awaitEnd(hello.thread());
      try (FakeTask retry = FakeTask.connect(server.socketPath())) {
        retry.hello(TASK, second);
        assertThat(recorder.nextMessage(TASK, 2)).isEqualTo(new TaskMessage.Hello(4242));
      }
    }
  }

  @Test
  void sendingToAnUnregisteredTaskIsReportedNotThrown() throws Exception {
    server.send(TASK, ControlCommand.exit());

    assertThat(recorder.nextProblem()).contains("not registered").contains("exit");
  }

  @Test
  void closeClosesConnectionsAndDeletesTheSocketFile() throws Exception {
    String token = server.register(TASK, 1);
    Path socket = server.socketPath();
    try (FakeTask task = FakeTask.connect(socket)) {
      task.hello(TASK, token);
      Recorder.Message hello = (Recorder.Message) recorder.next();
      assertThat(socket).exists();

      server.close();

      task.awaitClosed();
      Recorder.awaitEnd(hello.thread());
      assertThat(socket).doesNotExist();
      assertThat(recorder.all()).containsExactly(hello);
    }
  }

  @Test
  void openReplacesAStaleSocketFile() throws Exception {
    Path stale = ControlSocketPath.forRun(runDir.resolve("other"));
    Files.writeString(stale, "left behind");
    try (ControlServer other = ControlServer.open(stale, recorder)) {
      String token = other.register(TASK, 1);
      try (FakeTask task = FakeTask.connect(stale)) {
        task.hello(TASK, token);
        assertThat(recorder.nextMessage(TASK, 1)).isEqualTo(new TaskMessage.Hello(4242));
      }
    }
    assertThat(stale).doesNotExist();
  }
}
