package dev.berth.runtime.control.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.core.model.TaskId;
import dev.berth.protocol.ControlCodec;
import dev.berth.protocol.ControlCommand;
import dev.berth.protocol.LineChannel;
import dev.berth.protocol.TaskMessage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Plays a task process on a real socket: sends lines, and collects Berth's lines on a thread. */
final class FakeTask implements AutoCloseable {

  static final long WAIT_SECONDS = 20;

  /** Marks the end of the stream in the queue; compared by identity. */
  private static final String END = new String("end of stream");

  private final LineChannel lines;
  private final BlockingQueue<String> incoming = new LinkedBlockingQueue<>();

  private FakeTask(LineChannel lines) {
    this.lines = lines;
  }

  static FakeTask connect(Path socket) throws IOException {
    FakeTask task = new FakeTask(LineChannel.connect(socket));
    Thread reader = new Thread(task::read, "fake-task-reader");
    reader.setDaemon(true);
    reader.start();
    return task;
  }

  private void read() {
    try {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        incoming.add(line);
      }
    } catch (IOException e) {
      // closed: the end of the stream below says so
    }
    incoming.add(END);
  }

  void hello(TaskId task, String token) throws IOException {
    send(ControlCodec.hello(task.value(), token, 4242));
  }

  void say(TaskMessage message) throws IOException {
    send(ControlCodec.encode(message));
  }

  void send(String line) throws IOException {
    lines.writeLine(line);
  }

  /** The next command from Berth, failing at the end of the stream or after the wait. */
  ControlCommand nextCommand() throws Exception {
    String line = incoming.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (line == null) {
      fail("no command within %d s", WAIT_SECONDS);
    }
    if (line == END) {
      fail("the connection closed while a command was expected");
    }
    return ControlCodec.decodeCommand(line);
  }

  /** Waits for Berth to close the connection, with no command before it. */
  void awaitClosed() throws InterruptedException {
    String line = incoming.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    assertThat(line).as("the end of the stream").isSameAs(END);
  }

  @Override
  public void close() {
    lines.close();
  }
}
