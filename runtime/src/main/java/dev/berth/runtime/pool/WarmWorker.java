package dev.berth.runtime.pool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.berth.runtime.exec.ProcessTrees;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One warm worker of a pool (an engine, in docs/pools.md's words), pinned to a device: a
 * {@code berth_engine.py engine} or Java worker process fed call requests on its standard input, one
 * JSON line each, whose replies its reader thread hands to the pool. Its state is guarded by the pool's lock; its replies and its exit arrive on its own thread.
 */
final class WarmWorker {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long EXIT_GRACE_SECONDS = 10;
  /** With {@code hwm: auto}: how many calls an engine whose calls are short takes at once. */
  static final int AUTO_QUEUE = 16;
  /** With {@code hwm: auto}: a call shorter than this is short; an engine queues calls only while its last one was. */
  static final double SHORT_CALL_SECONDS = 0.02;

  private final String name;
  private final String device;
  private final List<String> launcher;
  private final Process process;
  private final OutputStream requests;
  private final Deque<PoolCall> inFlight = new ArrayDeque<>();
  private long calls;
  private double lastCallSeconds = Double.MAX_VALUE;
  private long lastUsed;
  private boolean retiring;
  private double cpuSeconds;
  private long residentBytes;
  private volatile String setupError;

  WarmWorker(String name, String device, List<String> launcher, Process process) {
    this.name = name;
    this.device = device;
    this.launcher = launcher;
    this.process = process;
    this.requests = process.getOutputStream();
  }

  /** Reads replies on a thread of its own until the engine exits; then its exit code goes to {@code exited}. */
  void listen(BiConsumer<WarmWorker, JsonNode> replied, BiConsumer<WarmWorker, Integer> exited, Consumer<Runnable> start) {
    start.accept(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          JsonNode reply = JSON.readTree(line);
          if (reply.has("ready")) {
            if (!reply.path("ready").asBoolean()) {
              setupError = reply.path("error").asText();
            }
          } else {
            replied.accept(this, reply);
          }
        }
      } catch (IOException | RuntimeException e) {
        // the engine's output ended or broke: it is killed below, and its calls end with it
      }
      exited.accept(this, exitCode());
    });
  }

  /**
   * The engine's exit code once its output ended: it is exiting then (a failed setup, a kill), and is
   * killed if it still runs after {@value #EXIT_GRACE_SECONDS} s (it closed its output and went on).
   */
  private int exitCode() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (!process.waitFor(EXIT_GRACE_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
          }
          return process.waitFor();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  String name() {
    return name;
  }

  String device() {
    return device;
  }

  /** The command its engine was started with, up to {@code engine}: calls with the same launcher may share it. */
  List<String> launcher() {
    return launcher;
  }

  long pid() {
    return process.pid();
  }

  /**
   * Sends {@code call} to the engine as request {@code id}, behind the calls it has. Pool lock held.
   *
   * @return whether the engine begins it at once (it had no other call)
   */
  boolean send(PoolCall call, long id, long sequence) {
    ObjectNode request = JSON.createObjectNode();
    request.put("id", id);
    request.put("call", call.call().function());
    request.putRawValue("kwargs", new RawValue(call.call().kwargsJson())); // JSON already: the spec wrote it
    ObjectNode env = request.putObject("env");
    call.request().env().forEach(env::put);
    env.put("BERTH_ENGINE", name);
    request.put("cwd", call.request().workdir().toString());
    request.put("stdout", call.request().stdout().toString());
    request.put("stderr", call.request().stderr().toString());
    // The task's own stdout.log and stderr.log beside its attempt's files (the run's layout).
    request.putArray("shown").add(call.request().stdout().resolveSibling("stdout.log").toString())
        .add(call.request().stderr().resolveSibling("stderr.log").toString());
    request.put("result", CallRequest.resultFile(call.request()).toString());
    call.call().paths().forEach(request.putArray("path")::add);
    boolean idle = inFlight.isEmpty();
    inFlight.add(call);
    lastUsed = sequence;
    call.sentTo(this, id);
    write(request.toString());
    return idle;
  }

  /** Tells the engine to skip a call it has queued and not begun: it answers it at once without running it. Pool lock held. */
  void skip(PoolCall call) {
    write("{\"skip\": " + call.requestId() + "}");
  }

  private void write(String line) {
    try {
      requests.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      requests.flush();
    } catch (IOException e) {
      process.destroyForcibly(); // its reader sees the end and its calls end or move with the engine
    }
  }

  /**
   * The most calls it takes at once: the pool's {@code hwm}, or for {@code auto}, one while its calls
   * are long (or none was answered yet) and {@value #AUTO_QUEUE} while they are short. Pool lock held.
   */
  int highWaterMark(int hwm) {
    return highWaterMark(hwm, calls, lastCallSeconds);
  }

  /** The mark of an engine that answered {@code answered} calls, the last taking {@code lastCallSeconds}. */
  static int highWaterMark(int hwm, long answered, double lastCallSeconds) {
    if (hwm > 0) {
      return hwm;
    }
    return answered > 0 && lastCallSeconds < SHORT_CALL_SECONDS ? AUTO_QUEUE : 1;
  }

  /** The call the reply answers (the oldest in flight), its count and length taken. Pool lock held. */
  PoolCall answered(JsonNode reply) {
    if (!reply.path("skipped").asBoolean()) {
      calls++;
      lastCallSeconds = reply.path("wall").asDouble(Double.MAX_VALUE);
    }
    return inFlight.poll();
  }

  /** CPU seconds since the previous reply, from the engine's running total in {@code reply}. Pool lock held. */
  double cpuSince(JsonNode reply) {
    double total = reply.path("cpu").asDouble(cpuSeconds);
    double delta = Math.max(0, total - cpuSeconds);
    cpuSeconds = total;
    return delta;
  }

  /** Notes the engine's resident memory after a call. Pool lock held. */
  void measured(long bytes) {
    residentBytes = bytes;
  }

  /** The engine's resident memory after its last call; 0 before its first. Pool lock held. */
  long residentBytes() {
    return residentBytes;
  }

  Deque<PoolCall> inFlight() {
    return inFlight;
  }

  long calls() {
    return calls;
  }

  long lastUsed() {
    return lastUsed;
  }

  boolean retiring() {
    return retiring;
  }

  /** Takes no more calls, and leaves once those in flight are answered: its input closes and it exits. */
  void retire() {
    retiring = true;
    if (inFlight.isEmpty()) {
      try {
        requests.close();
      } catch (IOException e) {
        process.destroyForcibly();
      }
    }
  }

  /** What the engine's setup raised, when it failed. */
  String setupError() {
    return setupError;
  }

  /** Ends the engine and what it started: a polite signal, then a kill after {@code graceMillis}. */
  void terminate(long graceMillis, ScheduledExecutorService killTimer) {
    retiring = true;
    Set<ProcessHandle> tree = ProcessTrees.of(process.toHandle());
    if (graceMillis <= 0) {
      ProcessTrees.killAlive(tree);
      return;
    }
    ProcessTrees.terminate(tree);
    try {
      killTimer.schedule(() -> ProcessTrees.killAlive(tree), graceMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      ProcessTrees.killAlive(tree);
    }
  }
}
