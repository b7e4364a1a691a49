package dev.berth.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link Executor} must do, written once for the real executor and the fake.
 *
 * <p>The tests speak a small vocabulary of programs ("exits with 3", "runs until terminated",
 * "prints hello and err", ...). By default each is written as a standard POSIX command ({@code sh},
 * {@code printenv}, {@code pwd}, {@code sleep}), so an executor that runs real processes only supplies
 * itself through {@link #executor()}. A fake writes the programs its own way and is told how to act
 * each out by {@link #play}; tests of effects on the file system are skipped unless
 * {@link #startsRealProcesses()}.
 */
public abstract class ExecutorContractTest {

  /** The longest a test waits for an exit. */
  protected static final long WAIT_SECONDS = 20;

  /** A fresh folder for each test; work and log files of launched tasks go under it. */
  @TempDir protected Path dir;

  private Executor executor;

  /** A new executor; called once before each test and closed after it. */
  protected abstract Executor executor();

  /** A command that exits at once with {@code code} (0 to 125). */
  protected List<String> exitingWith(int code) {
    return code == 0 ? List.of("true") : List.of("sh", "-c", "exit " + code);
  }

  /** A command that runs until terminated and dies from the polite signal (exit 143). */
  protected List<String> runningUntilTerminated() {
    return List.of("sleep", "1000");
  }

  /** A command that writes {@code "hello\n"} to standard output and {@code "err\n"} to error, then exits 0. */
  protected List<String> printingHelloAndErr() {
    return List.of("sh", "-c", "echo hello; echo err >&2");
  }

  /** A command that writes the value of the variable {@code name} and a newline to standard output, then exits 0. */
  protected List<String> printingVariable(String name) {
    return List.of("printenv", name);
  }

  /** A command that writes its absolute working directory and a newline to standard output, then exits 0. */
  protected List<String> printingWorkingDirectory() {
    return List.of("pwd");
  }

  /** A command whose program does not exist; a fake arranges here for the launch of {@code task} to fail. */
  protected List<String> missingProgram(TaskId task) {
    return List.of("berth-no-such-program-" + task);
  }

  /** Whether launched commands really run, so that folders and output files can be checked; by default they do. */
  protected boolean startsRealProcesses() {
    return true;
  }

  /** Lets a launched process act out its command; a real process needs nothing, so by default nothing. */
  protected void play(LaunchRequest request, Execution execution) {}

  @BeforeEach
  void createExecutor() {
    executor = executor();
  }

  @AfterEach
  void closeExecutor() {
    executor.close();
  }

  @Test
  void theExitCodeIsReportedExactlyOnce() throws Exception {
    Exits exits = new Exits();
    start(request("three", exitingWith(3)), exits);

    assertThat(exits.await()).isEqualTo(3);
    runToCompletion("after-three");
    assertThat(exits.count()).isEqualTo(1);
  }

  @Test
  void aSuccessfulExitIsReportedAsZero() throws Exception {
    Exits exits = new Exits();
    start(request("zero", exitingWith(0)), exits);

    assertThat(exits.await()).isZero();
  }

  @Test
  void thePidIsPositiveOrUnknown() throws Exception {
    Exits exits = new Exits();
    Execution execution = start(request("pid", exitingWith(0)), exits);

    assertThat(execution.pid()).matches(pid -> pid > 0 || pid == -1, "positive or -1");
    exits.await();
  }

  @Test
  void terminateEndsTheProcessAndItsExitIsReported() throws Exception {
    Exits exits = new Exits();
    Execution execution = start(request("endless", runningUntilTerminated()), exits);
    assertThat(execution.isAlive()).isTrue();

    execution.terminate(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

    assertThat(exits.await()).isEqualTo(143);
    assertThat(execution.isAlive()).isFalse();
    runToCompletion("after-endless");
    assertThat(exits.count()).isEqualTo(1);
  }

  @Test
  void aMissingProgramFailsToLaunchAndIsNeverReported() throws Exception {
    TaskId task = TaskId.of("missing");
    LaunchRequest request = request(task.value(), missingProgram(task));
    Exits exits = new Exits();

    assertThatThrownBy(() -> executor.launch(request, exits))
        .isInstanceOf(LaunchException.class)
        .hasMessageContaining(request.command().get(0));
    runToCompletion("after-missing");
    assertThat(exits.count()).isZero();
  }

  @Test
  void theRequestedVariablesReachTheProcess() throws Exception {
    LaunchRequest request = request("env", printingVariable("BERTH_CONTRACT"), Map.of("BERTH_CONTRACT", "value-42"));
    Exits exits = new Exits();
    start(request, exits);

    assertThat(exits.await()).isZero();
    assertThat(Files.readString(request.stdout())).isEqualTo("value-42\n");
  }

  @Test
  void theWorkingDirectoryIsCreatedAndUsed() throws Exception {
    assumeTrue(startsRealProcesses(), "needs real processes");
    Path workdir = dir.resolve("deep").resolve("er").resolve("work");
    LaunchRequest request = new LaunchRequest(
        TaskId.of("pwd"), 1, printingWorkingDirectory(), new TreeMap<>(), workdir,
        dir.resolve("pwd.out"), dir.resolve("pwd.err"));
    Exits exits = new Exits();
    start(request, exits);

    assertThat(exits.await()).isZero();
    assertThat(workdir).isDirectory();
    assertThat(Files.readString(request.stdout()).strip()).isEqualTo(workdir.toRealPath().toString());
  }

  @Test
  void outputAndErrorAreAppendedToTheRequestedFiles() throws Exception {
    assumeTrue(startsRealProcesses(), "needs real processes");
    LaunchRequest request = request("hello", printingHelloAndErr());
    Files.createDirectories(request.stdout().getParent());
    Files.writeString(request.stdout(), "before\n");
    Exits exits = new Exits();
    start(request, exits);

    assertThat(exits.await()).isZero();
    assertThat(Files.readString(request.stdout())).isEqualTo("before\nhello\n");
    assertThat(Files.readString(request.stderr())).isEqualTo("err\n");
  }

  @Test
  void launchAllStartsEachRequestAndReportsEachExitToItsOwnListener() throws Exception {
    List<LaunchRequest> requests = List.of(request("all-0", exitingWith(0)), request("all-4", exitingWith(4)),
        request("all-missing", missingProgram(TaskId.of("all-missing"))));
    Map<TaskId, Exits> exits = new TreeMap<>();
    requests.forEach(r -> exits.put(r.task(), new Exits()));

    List<Launch> launches = executor.launchAll(requests, r -> exits.get(r.task()));

    assertThat(launches).extracting(Launch::request).containsExactlyElementsOf(requests);
    assertThat(launches.get(2).failure()).as("a request that cannot start fails alone").isPresent();
    for (Launch launch : launches.subList(0, 2)) {
      play(launch.request(), launch.execution().orElseThrow());
    }
    assertThat(exits.get(TaskId.of("all-0")).await()).isZero();
    assertThat(exits.get(TaskId.of("all-4")).await()).isEqualTo(4);
    runToCompletion("after-all");
    assertThat(exits.get(TaskId.of("all-missing")).count()).isZero();
  }

  @Test
  void launchesFromSeveralThreadsAtOnceEachReportTheirOwnExitOnce() throws Exception {
    int threads = 4;
    int perThread = 2;
    CyclicBarrier together = new CyclicBarrier(threads);
    ExecutorService launchers = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Map<Integer, Exits>>> launched = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        launched.add(launchers.submit(() -> {
          together.await(WAIT_SECONDS, TimeUnit.SECONDS);
          Map<Integer, Exits> byCode = new TreeMap<>();
          for (int k = 0; k < perThread; k++) {
            int code = 1 + thread * perThread + k;
            Exits exits = new Exits();
            start(request("concurrent-" + code, exitingWith(code)), exits);
            byCode.put(code, exits);
          }
          return byCode;
        }));
      }
      Map<Integer, Exits> all = new TreeMap<>();
      for (Future<Map<Integer, Exits>> f : launched) {
        all.putAll(f.get(WAIT_SECONDS, TimeUnit.SECONDS));
      }
      assertThat(all).hasSize(threads * perThread);
      for (Map.Entry<Integer, Exits> e : all.entrySet()) {
        assertThat(e.getValue().await()).as("the exit of the task that exits with %d", e.getKey()).isEqualTo(e.getKey());
      }
      runToCompletion("after-concurrent");
      assertThat(all.values()).allMatch(exits -> exits.count() == 1, "each exit reported once");
    } finally {
      launchers.shutdownNow();
    }
  }

  @Test
  void reattachFindsNothingForAnAttemptThatWasNeverStarted() {
    assertThat(executor.reattach(request("never", exitingWith(0)), new Exits())).isEmpty();
  }

  /** Launches and plays the request. */
  private Execution start(LaunchRequest request, ExitListener listener) throws LaunchException {
    Execution execution = executor.launch(request, listener);
    play(request, execution);
    return execution;
  }

  /** Runs one more process to its end, giving a wrongly repeated or late report time to show up. */
  private void runToCompletion(String task) throws Exception {
    Exits exits = new Exits();
    start(request(task, exitingWith(0)), exits);
    exits.await();
  }

  private LaunchRequest request(String task, List<String> command) {
    return request(task, command, Map.of());
  }

  private LaunchRequest request(String task, List<String> command, Map<String, String> env) {
    SortedMap<String, String> variables = new TreeMap<>(env);
    return new LaunchRequest(
        TaskId.of(task), 1, command, variables, dir.resolve("work").resolve(task),
        dir.resolve("logs").resolve(task + ".out"), dir.resolve("logs").resolve(task + ".err"));
  }

  /** Records the exits reported to one listener. */
  private static final class Exits implements ExitListener {
    private final CompletableFuture<Integer> first = new CompletableFuture<>();
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public void exited(int exitCode) {
      count.incrementAndGet();
      first.complete(exitCode);
    }

    int await() throws Exception {
      return first.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    int count() {
      return count.get();
    }
  }
}
