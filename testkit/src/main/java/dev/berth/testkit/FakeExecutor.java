package dev.berth.testkit;

import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.JobLimit;
import dev.berth.spi.Execution;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Executor;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An {@link Executor} whose processes run only in the test's imagination: they stay running until
 * the test calls {@link #exit(TaskId, int)}, which calls the exit listener synchronously on the
 * calling thread. Nothing touches the file system unless the test calls {@link #writeOutput}.
 *
 * <p>{@link Execution#terminate(long) terminate} is recorded and, by default, makes the process
 * exit with 143 (128 + SIGTERM) at once, synchronously, on the terminating thread. After {@link
 * #deferTerminations()} terminated processes keep running until {@link #deliverTerminations()}, to
 * test what happens in between.
 *
 * <p>Every event is also written to a {@link #transcript()}: {@code "launch a#1"}, {@code
 * "launch-failed a#2"}, {@code "exit a 0"}, {@code "terminate b"}. Thread-safe.
 */
public final class FakeExecutor implements Executor {

  /** Exit code of a fake process ended by {@link Execution#terminate(long)}: 128 + SIGTERM. */
  public static final int TERMINATED_EXIT_CODE = 143;

  private final List<LaunchRequest> launches = new ArrayList<>();
  private final List<String> transcript = new ArrayList<>();
  private final List<Termination> terminations = new ArrayList<>();
  private final Map<TaskId, String> failNextLaunch = new HashMap<>();
  private final Map<TaskId, Map.Entry<String, JobLimit>> refuseNextLaunch = new HashMap<>();
  private List<JobLimit> jobLimits = List.of();
  private final Map<TaskId, FakeProcess> running = new TreeMap<>();
  private final List<FakeProcess> pendingTerminations = new ArrayList<>();
  private final List<List<TaskId>> batches = new ArrayList<>();
  private final java.util.Set<String> survivors = new java.util.TreeSet<>();
  private boolean deferTerminations;
  private boolean cluster;
  private boolean closed;
  private long nextPid = 1000;

  /** A terminate call: which attempt of which task, with what grace. */
  public record Termination(TaskId task, int attempt, long graceMillis) {}

  /** An executor with no processes, terminating immediately. */
  public FakeExecutor() {}

  @Override
  public synchronized Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    if (closed) {
      throw new IllegalStateException("executor is closed");
    }
    TaskId task = request.task();
    if (running.containsKey(task)) {
      throw new IllegalStateException("task " + task + " already has a running process");
    }
    launches.add(request);
    String failure = failNextLaunch.remove(task);
    if (failure != null) {
      transcript.add("launch-failed " + task + "#" + request.attempt());
      throw new LaunchException(failure, new IOException(failure));
    }
    Map.Entry<String, JobLimit> refusal = refuseNextLaunch.remove(task);
    if (refusal != null) {
      transcript.add("launch-later " + task + "#" + request.attempt());
      List<JobLimit> taught = new ArrayList<>(jobLimits);
      taught.add(refusal.getValue());
      jobLimits = List.copyOf(taught);
      throw LaunchException.later(refusal.getKey(), null);
    }
    FakeProcess process = new FakeProcess(nextPid++, request, onExit);
    running.put(task, process);
    transcript.add("launch " + task + "#" + request.attempt());
    return process;
  }

  /**
   * Makes this executor behave like a batch system's: it {@linkplain #holdsUpstream() holds
   * attempts back} for their upstream, names each attempt with a cluster id ({@code job-<pid>}),
   * and {@linkplain #reattach reattaches} to attempts marked with {@link #survive}.
   */
  public synchronized FakeExecutor asCluster() {
    cluster = true;
    return this;
  }

  @Override
  public synchronized boolean holdsUpstream() {
    return cluster;
  }

  @Override
  public List<dev.berth.spi.Launch> launchAll(List<LaunchRequest> requests,
      java.util.function.Function<LaunchRequest, ExitListener> onExit) {
    synchronized (this) {
      batches.add(requests.stream().map(LaunchRequest::task).toList());
    }
    return Executor.super.launchAll(requests, onExit);
  }

  /** The tasks of each {@link #launchAll} call, in order: what one decision pass started together. */
  public synchronized List<List<TaskId>> batches() {
    return List.copyOf(batches);
  }

  /**
   * Marks attempt {@code attempt} of {@code task} as one that outlived the Berth that started it, so
   * a cluster executor's {@link #reattach} finds it running.
   */
  public synchronized FakeExecutor survive(TaskId task, int attempt) {
    survivors.add(task + "#" + attempt);
    return this;
  }

  @Override
  public synchronized Optional<Execution> reattach(LaunchRequest request, ExitListener onExit) {
    if (!cluster || !survivors.remove(request.task() + "#" + request.attempt())) {
      return Optional.empty();
    }
    FakeProcess process = new FakeProcess(nextPid++, request, onExit);
    running.put(request.task(), process);
    transcript.add("reattach " + request.task() + "#" + request.attempt());
    return Optional.of(process);
  }

  /**
   * Ends the task's running process with {@code code} and what the cluster says of it, calling its
   * listener on this thread.
   *
   * @throws IllegalStateException when the task has no running process
   */
  public void exit(TaskId task, int code, ClusterVerdict verdict) {
    FakeProcess process;
    synchronized (this) {
      process = runningProcess(task);
      process.verdict = Optional.of(verdict);
    }
    end(process, code);
  }

  /**
   * Ends the task's running process with {@code code}, as a cluster whose accounting recorded its job
   * so, calling its listener on this thread.
   *
   * @throws IllegalStateException when the task has no running process
   */
  public void exit(TaskId task, int code, ClusterAccounting accounting) {
    FakeProcess process;
    synchronized (this) {
      process = runningProcess(task);
      process.accounting = Optional.of(accounting);
    }
    end(process, code);
  }

  /** Marks the executor closed; later launches fail with {@link IllegalStateException}. */
  @Override
  public synchronized void close() {
    closed = true;
  }

  /** Whether {@link #close()} was called. */
  public synchronized boolean isClosed() {
    return closed;
  }

  /**
   * Ends the task's running process with {@code code}, calling its listener on this thread.
   *
   * @throws IllegalStateException when the task has no running process
   */
  public void exit(TaskId task, int code) {
    end(runningProcess(task), code);
  }

  /** Makes the next launch of {@code task} throw a {@link LaunchException} with {@code message}. */
  public synchronized FakeExecutor failLaunchOf(TaskId task, String message) {
    failNextLaunch.put(task, message);
    return this;
  }

  /**
   * Makes the next launch of {@code task} refused for now ({@link LaunchException#later}) with
   * {@code message}, as a cluster whose queue is full refuses a job; from then on {@link #jobLimits()}
   * also answers {@code taught}.
   */
  public synchronized FakeExecutor refuseLaunchOfForNow(TaskId task, String message, JobLimit taught) {
    refuseNextLaunch.put(task, Map.entry(message, taught));
    return this;
  }

  /** Makes {@link #jobLimits()} answer {@code limits} from now on. */
  public synchronized FakeExecutor jobLimits(List<JobLimit> limits) {
    jobLimits = List.copyOf(limits);
    return this;
  }

  @Override
  public synchronized List<JobLimit> jobLimits() {
    return jobLimits;
  }

  /** From now on terminated processes keep running until {@link #deliverTerminations()}. */
  public synchronized FakeExecutor deferTerminations() {
    deferTerminations = true;
    return this;
  }

  /**
   * Ends every process terminated since the last delivery and still running with {@link
   * #TERMINATED_EXIT_CODE}, in the order they were terminated.
   */
  public void deliverTerminations() {
    List<FakeProcess> due;
    synchronized (this) {
      due = List.copyOf(pendingTerminations);
      pendingTerminations.clear();
    }
    due.forEach(process -> end(process, TERMINATED_EXIT_CODE));
  }

  /**
   * Appends text to the standard output and error files of the task's running process, creating
   * their folders, as if the process had printed it.
   *
   * @throws IllegalStateException when the task has no running process
   */
  public void writeOutput(TaskId task, String stdout, String stderr) {
    LaunchRequest request;
    synchronized (this) {
      request = runningProcess(task).request;
    }
    append(request.stdout(), stdout);
    append(request.stderr(), stderr);
  }

  /** Every launch request received, in order, including those that were made to fail. */
  public synchronized List<LaunchRequest> launches() {
    return List.copyOf(launches);
  }

  /** The launch requests received for {@code task}, in order. */
  public synchronized List<LaunchRequest> launched(TaskId task) {
    return launches.stream().filter(r -> r.task().equals(task)).toList();
  }

  /**
   * The most recent launch request for {@code task}.
   *
   * @throws IllegalStateException when the task was never launched
   */
  public synchronized LaunchRequest lastLaunch(TaskId task) {
    List<LaunchRequest> all = launched(task);
    if (all.isEmpty()) {
      throw new IllegalStateException("task " + task + " was never launched");
    }
    return all.get(all.size() - 1);
  }

  /** Tasks whose fake process is running. */
  public synchronized SortedSet<TaskId> running() {
    return new TreeSet<>(running.keySet());
  }

  /** Whether {@code task} has a running process. */
  public synchronized boolean isRunning(TaskId task) {
    return running.containsKey(task);
  }

  /** Every terminate call, in order, including calls on processes that had already exited. */
  public synchronized List<Termination> terminations() {
    return List.copyOf(terminations);
  }

  /** Everything that happened, in order, e.g. {@code ["launch a#1", "terminate a", "exit a 143"]}. */
  public synchronized List<String> transcript() {
    return List.copyOf(transcript);
  }

  /** The task's running process; throws when it has none. */
  private synchronized FakeProcess runningProcess(TaskId task) {
    FakeProcess process = running.get(task);
    if (process == null) {
      throw new IllegalStateException("task " + task + " has no running process");
    }
    return process;
  }

  private void end(FakeProcess process, int code) {
    synchronized (this) {
      if (!process.alive) {
        return;
      }
      process.alive = false;
      running.remove(process.request.task(), process);
      pendingTerminations.remove(process);
      transcript.add("exit " + process.request.task() + " " + code);
    }
    process.listener.exited(code);
  }

  private void terminate(FakeProcess process, long graceMillis) {
    boolean now;
    synchronized (this) {
      TaskId task = process.request.task();
      terminations.add(new Termination(task, process.request.attempt(), graceMillis));
      transcript.add("terminate " + task);
      now = !deferTerminations;
      if (!now && process.alive && !pendingTerminations.contains(process)) {
        pendingTerminations.add(process);
      }
    }
    if (now) {
      end(process, TERMINATED_EXIT_CODE);
    }
  }

  private static void append(Path file, String text) {
    try {
      Path folder = file.toAbsolutePath().getParent();
      if (folder != null) {
        Files.createDirectories(folder);
      }
      Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private final class FakeProcess implements Execution {
    final long pid;
    final LaunchRequest request;
    final ExitListener listener;
    boolean alive = true; // guarded by the FakeExecutor
    Optional<ClusterVerdict> verdict = Optional.empty(); // guarded by the FakeExecutor
    Optional<ClusterAccounting> accounting = Optional.empty(); // guarded by the FakeExecutor

    FakeProcess(long pid, LaunchRequest request, ExitListener listener) {
      this.pid = pid;
      this.request = request;
      this.listener = listener;
    }

    @Override
    public long pid() {
      return pid;
    }

    @Override
    public boolean isAlive() {
      synchronized (FakeExecutor.this) {
        return alive;
      }
    }

    @Override
    public void terminate(long graceMillis) {
      FakeExecutor.this.terminate(this, graceMillis);
    }

    @Override
    public Optional<String> clusterId() {
      synchronized (FakeExecutor.this) {
        return cluster ? Optional.of("job-" + pid) : Optional.empty();
      }
    }

    @Override
    public Optional<ClusterVerdict> verdict() {
      synchronized (FakeExecutor.this) {
        return verdict;
      }
    }

    @Override
    public Optional<ClusterAccounting> accounting() {
      synchronized (FakeExecutor.this) {
        return accounting;
      }
    }
  }
}
