package dev.berth.task.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.MessageJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker's engine mode: a setup, then a task per request line, answered in the Python engines' protocol. */
class PoolWorkerTest {

  @TempDir Path dir;

  private PrintStream out;
  private PrintStream err;
  private final ByteArrayOutputStream protocol = new ByteArrayOutputStream();
  private final ByteArrayOutputStream idle = new ByteArrayOutputStream();
  private final List<Integer> halts = new ArrayList<>();

  @BeforeEach
  void keepStreams() {
    out = System.out;
    err = System.err;
  }

  @AfterEach
  void restoreStreams() {
    System.setOut(out);
    System.setErr(err);
  }

  private int run(String input, String... options) {
    PoolWorker worker = new PoolWorker(Map.of("HOME_OF_ENGINE", "x"), new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(protocol, true, StandardCharsets.UTF_8), new PrintStream(idle, true, StandardCharsets.UTF_8),
        halts::add, getClass().getClassLoader());
    return worker.run(List.of(options));
  }

  private String request(int id, String taskClass, String task) {
    Path taskDir = dir.resolve(task);
    Map<String, Object> env = new LinkedHashMap<>();
    env.put("BERTH_TASK_ID", task);
    env.put("BERTH_TASK_DIR", taskDir.toString());
    env.put("BERTH_DEVICE", "cuda:1");
    env.put("BERTH_PARAM_LR", "0.5");
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("id", id);
    request.put("call", taskClass);
    request.put("env", env);
    request.put("stdout", taskDir.resolve("stdout.log").toString());
    request.put("stderr", taskDir.resolve("stderr.log").toString());
    request.put("result", taskDir.resolve("result.json").toString());
    return MessageJson.write(request) + "\n";
  }

  /** A request as Berth sends it: the attempt's own log files, shown under the task's names. */
  private String attemptRequest(int id, String taskClass, String task, int attempt) {
    Map<String, Object> request = new LinkedHashMap<>(castMap(MessageJson.parse(request(id, taskClass, task))));
    Path taskDir = dir.resolve(task);
    request.put("stdout", taskDir.resolve("attempt-" + attempt + ".stdout.log").toString());
    request.put("stderr", taskDir.resolve("attempt-" + attempt + ".stderr.log").toString());
    request.put("shown", List.of(taskDir.resolve("stdout.log").toString(), taskDir.resolve("stderr.log").toString()));
    Map<String, Object> env = new LinkedHashMap<>(castMap(request.get("env")));
    env.put("BERTH_ATTEMPT", String.valueOf(attempt));
    request.put("env", env);
    return MessageJson.write(request) + "\n";
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Object map) {
    return (Map<String, Object>) map;
  }

  private List<String> replies() {
    return protocol.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Test
  void aSetupClassIsInitialisedOnceAndEachRequestRunsItsTaskWritingItsResultAndItems() throws Exception {
    Files.createDirectories(dir.resolve("a"));
    Files.createDirectories(dir.resolve("b"));

    int code = run(request(1, Tasks.Happy.class.getName(), "a") + request(2, Tasks.Failing.class.getName(), "b"),
        PoolWorker.SETUP, Tasks.Warm.class.getName());

    assertThat(code).isZero();
    assertThat(Tasks.Warm.INITIALISED.get()).isEqualTo(1);
    List<String> replies = replies();
    assertThat(replies.get(0)).startsWith("{\"ready\":true,\"pid\":" + ProcessHandle.current().pid());
    assertThat(replies.get(1)).startsWith("{\"id\":1,\"ok\":true,\"rss\":");
    assertThat(replies.get(2)).startsWith("{\"id\":2,\"ok\":false,\"error\":\"java.lang.IllegalStateException: bad batch");
    assertThat(dir.resolve("a/result.json")).content()
        .isEqualTo("{\"device\":\"cuda:1\",\"sum\":6,\"lr\":\"0.5\",\"best\":null}");
    assertThat(dir.resolve("a/items.json")).content().isEqualTo("{\"progress\":{\"epoch\":1},\"rows\":3}");
    assertThat(dir.resolve("b/stderr.log")).content().contains("IllegalStateException: bad batch", "at ");
    assertThat(dir.resolve("b/result.json")).doesNotExist();
  }

  @Test
  void aSetupThatFailsSaysSoOnceAndTheEngineEnds() {
    int code = run(request(1, Tasks.Happy.class.getName(), "a"), PoolWorker.SETUP, "com.example.Missing::load");

    assertThat(code).isEqualTo(1);
    assertThat(replies()).hasSize(1);
    assertThat(replies().get(0)).startsWith("{\"ready\":false,\"error\":\"java.lang.ClassNotFoundException: com.example.Missing");
  }

  @Test
  void aStaticMethodSetupIsCalled() throws Exception {
    assertThat(run("", PoolWorker.SETUP, PoolWorkerTest.class.getName() + "::warm")).isZero();

    assertThat(warmed).isTrue();
    assertThat(replies()).hasSize(1);
    assertThat(halts).as("an input that ends with no call pending ends the engine normally").isEmpty();
  }

  static boolean warmed;

  /** A setup method. */
  public static void warm() {
    warmed = true;
  }

  @Test
  void aCallThatPrintsNothingMakesNoLogFileAndOneThatPrintsHasItsAttemptsFileUnderTheTasksNameToo() throws Exception {
    Files.createDirectories(dir.resolve("a"));
    Files.createDirectories(dir.resolve("b"));

    run(attemptRequest(1, Tasks.Happy.class.getName(), "a", 1) + attemptRequest(2, Tasks.Failing.class.getName(), "b", 1));

    assertThat(dir.resolve("a")).isDirectoryNotContaining("glob:**.log");
    assertThat(dir.resolve("b/attempt-1.stderr.log")).content().contains("IllegalStateException: bad batch");
    assertThat(Files.isSameFile(dir.resolve("b/stderr.log"), dir.resolve("b/attempt-1.stderr.log"))).isTrue();
    assertThat(dir.resolve("b/stdout.log")).doesNotExist();
    assertThat(dir.resolve("b/attempt-1.stdout.log")).doesNotExist();
  }

  @Test
  void aLaterAttemptThatPrintsNothingNoLongerShowsTheEarlierAttemptsLogAsTheTasks() throws Exception {
    Path b = Files.createDirectories(dir.resolve("b"));
    Files.writeString(b.resolve("attempt-1.stderr.log"), "the first attempt's trace\n");
    Files.createLink(b.resolve("stderr.log"), b.resolve("attempt-1.stderr.log"));

    run(attemptRequest(1, Tasks.Happy.class.getName(), "b", 2));

    assertThat(b.resolve("stderr.log")).doesNotExist();
    assertThat(b.resolve("attempt-1.stderr.log")).content().isEqualTo("the first attempt's trace\n");
    assertThat(b.resolve("attempt-2.stderr.log")).doesNotExist();
  }
}
