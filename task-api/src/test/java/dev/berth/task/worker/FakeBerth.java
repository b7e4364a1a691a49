package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.protocol.LineChannel;
import dev.berth.protocol.MessageJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Plays Berth for one worker run inside the test: a Unix domain socket the worker connects to,
 * the worker on its own thread, and its lines collected as parsed maps.
 */
final class FakeBerth implements AutoCloseable {

  static final long WAIT_SECONDS = 20;
  static final String TOKEN = "0123456789abcdef";

  private static final Object END = new Object();

  private final ServerSocketChannel server;
  private final Path socketPath;
  private final BlockingQueue<Object> lines = new LinkedBlockingQueue<>();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final CompletableFuture<Integer> exit = new CompletableFuture<>();
  private final CompletableFuture<Integer> halted = new CompletableFuture<>();
  private volatile LineChannel connection;

  private FakeBerth(ServerSocketChannel server, Path socketPath) {
    this.server = server;
    this.socketPath = socketPath;
  }

  /** Starts the worker on {@code taskClass} with the environment Berth would give it. */
  static FakeBerth start(Path dir, Class<?> taskClass, Map<String, String> extraEnv) throws IOException {
    Path socket = Files.createTempDirectory("bt").resolve("c.sock");
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket));
    FakeBerth berth = new FakeBerth(server, socket);
    Map<String, String> env = new HashMap<>(extraEnv);
    env.put("BERTH_CONTROL", socket.toString());
    env.put("BERTH_TASK_ID", "t-1");
    env.put("BERTH_TOKEN", TOKEN);
    env.put("BERTH_TASK_DIR", dir.toString());
    env.put("BERTH_ATTEMPT", "2");
    String name = taskClass == null ? "com.example.Missing" : taskClass.getName();
    Thread worker = new Thread(() -> berth.runWorker(env, name), "worker-under-test");
    worker.setDaemon(true);
    worker.start();
    Thread reader = new Thread(berth::read, "fake-berth-reader");
    reader.setDaemon(true);
    reader.start();
    return berth;
  }

  private void runWorker(Map<String, String> env, String className) {
    try {
      PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
      exit.complete(new Worker(env, System.out, errStream, halted::complete, getClass().getClassLoader())
          .run(new String[] {className}));
    } catch (Throwable t) {
      exit.completeExceptionally(t);
    }
  }

  private void read() {
    try (LineChannel ch = new LineChannel(server.accept())) {
      connection = ch;
      for (String line = ch.readLine(); line != null; line = ch.readLine()) {
        lines.add(MessageJson.parse(line));
      }
    } catch (IOException e) {
      // closed by the test
    }
    lines.add(END);
  }

  /** The worker's next line, which must have {@code type}. */
  @SuppressWarnings("unchecked")
  Map<String, Object> next(String type) throws InterruptedException {
    Object line = lines.poll(WAIT_SECONDS, TimeUnit.SECONDS);
    if (line == null || line == END) {
      fail("expected a %s line but %s; stderr:%n%s", type, line == null ? "none came" : "the connection closed", stderr());
    }
    Map<String, Object> map = (Map<String, Object>) line;
    assertThat(map).as("stderr:%n%s", stderr()).containsEntry("type", type);
    return map;
  }

  /** Asserts the next line is the status {@code status}. */
  void expectStatus(String status) throws InterruptedException {
    assertThat(next("status")).containsEntry("status", status);
  }

  void send(String line) throws IOException {
    connection.writeLine(line);
  }

  void load() throws IOException {
    send("{\"type\":\"load\"}");
  }

  void train(String device) throws IOException {
    send("{\"type\":\"train\",\"device\":\"" + device + "\"}");
  }

  void exit() throws IOException {
    send("{\"type\":\"exit\"}");
  }

  /** Closes Berth's end of the connection. */
  void hangUp() throws IOException {
    connection.close();
  }

  /** The worker's exit code, waiting for it. */
  int exitCode() throws Exception {
    return exit.get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    server.close();
    LineChannel ch = connection;
    if (ch != null) {
      ch.close();
    }
    Files.deleteIfExists(socketPath);
    Files.deleteIfExists(socketPath.getParent());
  }
}
