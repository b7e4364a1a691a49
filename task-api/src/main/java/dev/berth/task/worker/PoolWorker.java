package dev.berth.task.worker;

import dev.berth.protocol.MessageJson;
import dev.berth.task.BerthTask;
import dev.berth.task.Device;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The task worker's pool mode, which docs/pools.md calls a pool's warm Java engine: runs
 * {@link BerthTask}s in this JVM, one per request line read on standard input, and answers each on
 * the descriptor that was standard output, speaking the same JSON lines as Berth's Python engine
 * (docs/pools.md):
 *
 * <pre>
 *   engine -&gt; Berth, once:     {"ready": true, "pid": N}  or  {"ready": false, "error": TRACE}
 *   Berth -&gt; engine, per call: {"id", "call" (the task class), "env", "stdout", "stderr", "shown", "result", ...}
 *   engine -&gt; Berth, per call: {"id", "ok", "error" (the stack trace when not ok), "rss", "cpu", "wall"}
 *   Berth -&gt; engine, any time: {"skip": N}: call N, received and not begun, is answered
 *                              {"id": N, "skipped": true} without running
 * </pre>
 *
 * <p>Each call creates the task, loads it and trains it on {@code BERTH_DEVICE}, with
 * {@code System.out} and {@code System.err} pointing at the call's log files, made only when it writes
 * to them (see {@link CallLog}); its result map goes to
 * {@code result.json}, its items to {@code items.json}, as a task process's would. The setup, a class
 * ({@code com.example.Warm}, initialised) or a public static method without arguments
 * ({@code com.example.Warm::load}), runs once before the first call.
 */
final class PoolWorker {

  static final String MODE = "engine";
  static final String SETUP = "--setup";

  /** Marks the end of the requests in the queue; compared by identity. */
  private static final String END = new String("end of input");

  private final Map<String, String> env;
  private final InputStream requests;
  private final PrintStream protocol;
  private final PrintStream idle;
  private final IntConsumer halt;
  private final ClassLoader loader;
  /** Ids of calls received that Berth ended before they began, as text. */
  private final Set<String> skipped = ConcurrentHashMap.newKeySet();

  /**
   * @param protocol where replies go (the process's standard output)
   * @param idle the engine's own log (its standard error), which takes what is printed between calls
   * @param halt ends the process at once when Berth is gone while a call runs
   */
  PoolWorker(Map<String, String> env, InputStream requests, PrintStream protocol, PrintStream idle, IntConsumer halt,
      ClassLoader loader) {
    this.env = env;
    this.requests = requests;
    this.protocol = protocol;
    this.idle = idle;
    this.halt = halt;
    this.loader = loader;
  }

  /** Runs the setup named in {@code options} ({@code --setup X}), then serves calls until the input ends. */
  int run(List<String> options) {
    System.setOut(idle);
    System.setErr(idle);
    int at = options.indexOf(SETUP);
    try {
      if (at >= 0 && at + 1 < options.size()) {
        setup(options.get(at + 1), loader);
      }
    } catch (Throwable t) {
      reply(ready(false, "error", Failures.traceback(t)));
      return 1;
    }
    reply(ready(true, "pid", ProcessHandle.current().pid()));
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    AtomicInteger pending = new AtomicInteger();
    Thread reader = new Thread(() -> read(lines, pending), "berth-engine-input");
    reader.setDaemon(true);
    reader.start();
    while (true) {
      String line;
      try {
        line = lines.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 1;
      }
      if (line == END) {
        return 0;
      }
      reply(serve(line));
      pending.decrementAndGet();
    }
  }

  /**
   * Queues request lines. Berth closes the input only when no call is in flight, so an end of input
   * with a call received and not answered means Berth is gone: the engine ends at once rather than
   * run on beside a resumed run that cannot see it.
   */
  private void read(BlockingQueue<String> lines, AtomicInteger pending) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(requests, StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("{\"skip\"")) {
          skipped.add(String.valueOf(((Map<?, ?>) MessageJson.parse(line)).get("skip")));
        } else if (!line.isBlank()) {
          pending.incrementAndGet();
          lines.add(line);
        }
      }
    } catch (IOException e) {
      // the input broke: as good as ended
    }
    if (pending.get() > 0) {
      halt.accept(3);
    }
    lines.add(END);
  }

  /** Runs one call and says how it went. */
  @SuppressWarnings("unchecked")
  private Map<String, Object> serve(String line) {
    Map<String, Object> request = (Map<String, Object>) MessageJson.parse(line);
    Map<String, Object> reply = new LinkedHashMap<>();
    reply.put("id", request.get("id"));
    if (skipped.remove(String.valueOf(request.get("id")))) {
      reply.put("skipped", true);
      return reply;
    }
    long began = System.nanoTime();
    Map<String, String> callEnv = new TreeMap<>(env);
    Object vars = request.get("env");
    if (vars instanceof Map<?, ?> m) {
      m.forEach((k, v) -> callEnv.put(String.valueOf(k), String.valueOf(v)));
    }
    List<?> shown = request.get("shown") instanceof List<?> names ? names : List.of();
    boolean later = !"1".equals(callEnv.getOrDefault("BERTH_ATTEMPT", "1"));
    try (PrintStream out = log(request.get("stdout"), shown.isEmpty() ? null : shown.get(0), later);
        PrintStream err = log(request.get("stderr"), shown.size() < 2 ? null : shown.get(1), later)) {
      System.setOut(out);
      System.setErr(err);
      try {
        Map<String, Object> items = new TreeMap<>();
        WorkerContext context = new WorkerContext(callEnv, items::put, new StderrLogger(WorkerContext.taskId(callEnv), err));
        BerthTask task = TaskLoader.create(String.valueOf(request.get("call")), loader);
        task.load(context);
        Map<String, Object> result = task.train(new Device(callEnv.getOrDefault("BERTH_DEVICE", "cpu")), context);
        Path taskDir = context.workdir();
        if (!items.isEmpty()) {
          writeAtomically(taskDir.resolve("items.json"), items);
        }
        if (result != null && request.get("result") != null) {
          writeAtomically(Path.of(String.valueOf(request.get("result"))), result);
        }
        reply.put("ok", true);
      } catch (TaskLoader.SetupException e) {
        String text = e.getMessage() + "\n" + (e.getCause() == null ? "" : Failures.traceback(e.getCause()));
        err.print(text);
        reply.put("ok", false);
        reply.put("error", text);
      } catch (Throwable t) {
        String text = Failures.traceback(t);
        err.print(text);
        reply.put("ok", false);
        reply.put("error", text);
        if (Failures.trainOom(t) != null) {
          reply.put("memory", true);
        }
      } finally {
        System.setOut(idle);
        System.setErr(idle);
      }
    }
    reply.put("rss", dev.berth.protocol.SelfMemory.residentBytes());
    reply.put("cpu", cpuSeconds());
    reply.put("wall", (System.nanoTime() - began) / 1e9);
    return reply;
  }

  private static Map<String, Object> ready(boolean ready, String key, Object value) {
    Map<String, Object> message = new LinkedHashMap<>();
    message.put("ready", ready);
    message.put(key, value);
    return message;
  }

  private void reply(Map<String, Object> message) {
    protocol.print(MessageJson.write(message) + "\n");
    protocol.flush();
  }

  /** The call's log {@code path}, shown as {@code shown} too, made only once the call writes (see {@link CallLog}). */
  private PrintStream log(Object path, Object shown, boolean laterAttempt) {
    if (path == null) {
      return new PrintStream(new java.io.FilterOutputStream(idle) {
        @Override
        public void close() throws IOException {
          flush(); // the engine's log stays open
        }
      }, true, StandardCharsets.UTF_8);
    }
    CallLog log = new CallLog(Path.of(String.valueOf(path)), shown == null ? null : Path.of(String.valueOf(shown)),
        laterAttempt);
    return new PrintStream(log, true, StandardCharsets.UTF_8);
  }

  /** Runs {@code Class::method} (public, static, no arguments), or initialises {@code Class}. */
  static void setup(String what, ClassLoader loader) throws Throwable {
    int colons = what.indexOf("::");
    Class<?> type = Class.forName(colons < 0 ? what : what.substring(0, colons), true, loader);
    if (colons >= 0) {
      try {
        type.getMethod(what.substring(colons + 2)).invoke(null);
      } catch (java.lang.reflect.InvocationTargetException e) {
        throw e.getCause();
      }
    }
  }

  /** Writes {@code value} as JSON to {@code file} through a temporary file, so a reader never sees half of it. */
  static void writeAtomically(Path file, Object value) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, MessageJson.write(value), StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static double cpuSeconds() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime() / 1e9;
    }
    return 0;
  }
}
