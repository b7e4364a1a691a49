package dev.berth.runtime.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskId;
import dev.berth.protocol.pool.EngineHelper;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchRequest;
import dev.berth.task.worker.WorkerCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Call tasks for the pool tests: a Python module of small functions, requests for them, and their exits. */
final class PoolCalls {

  static final long WAIT_SECONDS = 60;

  /**
   * A pool executor over real processes whose engines' helper is written into {@code dir}'s cache
   * folder, not the user's; {@link #stop} closes it.
   */
  static WorkerPoolExecutor executor(Path dir) {
    System.setProperty(EngineHelper.CACHE_PROPERTY, dir.resolve("cache").toString());
    return new WorkerPoolExecutor(new LocalProcessExecutor(), Set.of());
  }

  /** Closes an executor of {@link #executor} and lets the helper go back to the user's cache folder. */
  static void stop(WorkerPoolExecutor executor) {
    executor.close();
    System.clearProperty(EngineHelper.CACHE_PROPERTY);
  }

  static final String MODULE = """
      import os, sys
      setups = 0
      leak = []
      def setup():
          global setups
          setups += 1
      def echo(**kwargs):
          print("out", sorted(kwargs))
          return {"kwargs": kwargs, "pid": os.getpid(), "engine": os.environ.get("BERTH_ENGINE"),
                  "setups": setups, "task": os.environ.get("BERTH_TASK_ID")}
      def envs(names, set=None):
          if set:
              os.environ[set] = "changed by a call"
          return {n: os.environ.get(n) for n in names}
      def quiet():
          return {"pid": os.getpid()}
      def boom():
          raise RuntimeError("it broke")
      def block(ready, gate=None):
          with open(ready, "w") as out:
              out.write("%d\\n" % os.getpid())
          if gate:
              with open(gate) as g:
                  g.read()
          else:
              import threading
              threading.Event().wait()
          return {"pid": os.getpid()}
      def grow(mb):
          leak.append(b"\\x01" * (mb << 20))
          return {"pid": os.getpid()}
      """;

  private final Path dir;

  PoolCalls(Path dir) throws IOException {
    this.dir = dir;
    Files.writeString(dir.resolve("pooltest.py"), MODULE);
  }

  /** A request for a call of {@code function} with {@code kwargsJson} in the pool {@code spec}, as task {@code id}. */
  LaunchRequest request(PoolSpec spec, String id, String function, String kwargsJson) {
    return request(spec, id, function, kwargsJson, Placement.cpu(0, 0));
  }

  /** The same, for a task whose parent is task {@code parent} (its folder in {@code BERTH_DEP_PARENT_DIR}). */
  LaunchRequest dependant(PoolSpec spec, String id, String function, String parent) {
    LaunchRequest r = request(spec, id, function, "{}");
    SortedMap<String, String> env = new TreeMap<>(r.env());
    env.put("BERTH_DEP_PARENT_DIR", dir.resolve("tasks").resolve(parent).toString());
    return new LaunchRequest(r.task(), 1, r.command(), env, r.workdir(), r.stdout(), r.stderr(), r.reservation(), 0,
        Optional.empty(), Optional.empty()).withPool(r.pool());
  }

  /** {@code r} with the variable {@code name} set to {@code value} too. */
  static LaunchRequest withEnv(LaunchRequest r, String name, String value) {
    SortedMap<String, String> env = new TreeMap<>(r.env());
    env.put(name, value);
    return new LaunchRequest(r.task(), 1, r.command(), env, r.workdir(), r.stdout(), r.stderr(), r.reservation(), 0,
        Optional.empty(), Optional.empty()).withPool(r.pool());
  }

  /** The same, placed as {@code placement} says (on a GPU, say). */
  LaunchRequest request(PoolSpec spec, String id, String function, String kwargsJson, Placement placement) {
    return request(spec, id, 1, function, kwargsJson, placement);
  }

  /** The variables every call of a pool as task {@code id} gets. */
  private SortedMap<String, String> env(String id, Path taskDir) {
    SortedMap<String, String> env = new TreeMap<>();
    env.put("BERTH_TASK_ID", id);
    env.put("BERTH_TASK_DIR", taskDir.toString());
    env.put("BERTH_RUN_DIR", dir.toString());
    return env;
  }

  /** Attempt {@code attempt} of such a call, its logs named as a run names them ({@code attempt-N.stdout.log}). */
  LaunchRequest request(PoolSpec spec, String id, int attempt, String function, String kwargsJson, Placement placement) {
    Path taskDir = dir.resolve("tasks").resolve(id);
    SortedMap<String, String> env = env(id, taskDir);
    env.put("BERTH_ATTEMPT", String.valueOf(attempt));
    List<String> argv = EngineHelper.callCommand("python3", "pooltest:" + function, kwargsJson, List.of(dir.toString()));
    return new LaunchRequest(TaskId.of(id), attempt, argv, env, taskDir, taskDir.resolve("attempt-" + attempt + ".stdout.log"),
        taskDir.resolve("attempt-" + attempt + ".stderr.log"), placement, 0, Optional.empty(), Optional.empty())
        .withPool(Optional.of(spec));
  }

  /** A request for Java task {@code taskClass} with {@code params} in the Java pool {@code spec}, as task {@code id}. */
  LaunchRequest javaRequest(PoolSpec spec, String id, Class<?> taskClass, Map<String, String> params) {
    Path taskDir = dir.resolve("tasks").resolve(id);
    SortedMap<String, String> env = env(id, taskDir);
    env.put("BERTH_DEVICE", "cpu");
    params.forEach((k, v) -> env.put("BERTH_PARAM_" + k.toUpperCase(java.util.Locale.ROOT), v));
    List<String> argv = WorkerCommand.argv(List.of("-Xmx1g"), List.of(System.getProperty("java.class.path")),
        taskClass.getName());
    return new LaunchRequest(TaskId.of(id), 1, argv, env, taskDir, taskDir.resolve("stdout.log"),
        taskDir.resolve("stderr.log"), Placement.cpu(0, 0), 0, Optional.empty(), Optional.empty())
        .withPool(Optional.of(spec));
  }

  /** The task's {@code result.json}. */
  String result(String id) throws IOException {
    return Files.readString(dir.resolve("tasks").resolve(id).resolve("result.json"));
  }

  /** What the call's first attempt wrote to its standard error (or Berth about it). */
  String stderr(String id) throws IOException {
    Path dir = this.dir.resolve("tasks").resolve(id);
    Path attempt = dir.resolve("attempt-1.stderr.log");
    return Files.readString(Files.exists(attempt) ? attempt : dir.resolve("stderr.log"));
  }

  /** A named pipe a {@code block} call writes its pid to once it runs. */
  Path fifo(String name) throws Exception {
    Path path = dir.resolve(name);
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    return path;
  }

  /** Waits for the pid a {@code block} call writes to {@code ready} once it runs. */
  static long awaitRunning(Path ready) throws Exception {
    return CompletableFuture.supplyAsync(() -> {
      try (BufferedReader in = Files.newBufferedReader(ready, StandardCharsets.UTF_8)) {
        return Long.parseLong(in.readLine().trim());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** Opens {@code gate} for writing and closes it, which lets the {@code block} call reading it return. */
  static void open(Path gate) throws Exception {
    CompletableFuture.runAsync(() -> {
      try {
        Files.writeString(gate, "go\n");
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).get(WAIT_SECONDS, TimeUnit.SECONDS);
  }

  /** One exit, awaited, and the start it was told of, if any. */
  static final class Exit implements ExitListener {
    private final CompletableFuture<Integer> code = new CompletableFuture<>();
    private final CompletableFuture<String> start = new CompletableFuture<>();

    @Override
    public void exited(int exitCode) {
      code.complete(exitCode);
    }

    @Override
    public void started(long pid, Optional<String> job) {
      if (!start.complete(pid + " " + job.orElse("-"))) {
        start.completeExceptionally(new AssertionError("told of a second start"));
      }
    }

    /** The start it was told of after its launch, as {@code "PID ENGINE"}. */
    String awaitStart() throws Exception {
      return start.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** Whether it was told of a start (after its launch) by now. */
    boolean toldOfStart() {
      return start.isDone();
    }

    int await() throws Exception {
      return code.get(WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }
}
