package dev.berth.runtime.exec;

import dev.berth.os.DaemonThreads;
import dev.berth.os.LaunchPreparation;
import dev.berth.os.LogCap;
import dev.berth.runtime.contain.Container;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Starts task processes on this machine, natively with {@code posix_spawn} where the C library
 * allows, else with {@link ProcessBuilder} (see {@link Spawner}): the argument vector as given
 * (never through a shell), the request's variables added to the inherited environment (less the
 * variables that hold Berth's own secrets), standard
 * output and error appended to the request's files and standard input empty. An attempt of a run
 * (its request names the run folder and the attempt in {@code BERTH_RUN_DIR} and {@code BERTH_ATTEMPT})
 * starts under its {@link Supervision supervisor}, which marks its exit in the run's exit marks
 * even when no Berth is left to see it.
 *
 * <p>Exits are seen without polling: each process has a daemon thread of the executor's own
 * ({@code berth-exit-N}) that waits for it and reports its exit, woken directly when it ends.
 * ({@link Process#onExit()} would hand the exit through the common fork-join pool first: one thread
 * hop more per task, which on a busy machine costs a scheduling delay each.) Forced kills after a
 * termination's grace period run on its {@code berth-kill} thread. Launches may come from several
 * threads at once.
 */
public final class LocalProcessExecutor implements Executor {

  private static final Duration DEFAULT_SAMPLE_INTERVAL = Duration.ofSeconds(1);
  private static final long MIN_MARGIN_BYTES = 64L << 20;

  private final ExecutorService exitThreads = Executors.newCachedThreadPool(DaemonThreads.named("berth-exit", true));
  private final ScheduledThreadPoolExecutor killTimer =
      new ScheduledThreadPoolExecutor(1, DaemonThreads.named("berth-kill", false));
  private final TaskContainment containment;
  private final Spawner spawner;
  private final Set<LocalExecution> live = ConcurrentHashMap.newKeySet();
  private final Set<Thread> waiting = ConcurrentHashMap.newKeySet();
  private final AtomicLong containers = new AtomicLong();
  private final LocalSettings settings;

  private final Set<String> withheld;

  /** An executor with its own exit and kill threads, keeping tasks as {@link TaskContainment#detect()} finds best. */
  public LocalProcessExecutor() {
    this(TaskContainment.detect(), DEFAULT_SAMPLE_INTERVAL);
  }

  /**
   * An executor whose tasks do not inherit the variables named in {@code withheld}: those that hold
   * Berth's own secrets (a mail password, a webhook URL). A task's own {@code env} may still set them.
   */
  public LocalProcessExecutor(Set<String> withheld) {
    this(TaskContainment.detect(), DEFAULT_SAMPLE_INTERVAL, LocalSettings.DEFAULTS, withheld);
  }

  /**
   * An executor keeping each attempt's processes in a container of {@code containment}, whose
   * sampled measurements (where it has no exact counters) are taken every {@code sampleEvery}.
   */
  public LocalProcessExecutor(TaskContainment containment, Duration sampleEvery) {
    this(containment, sampleEvery, LocalSettings.DEFAULTS, Set.of());
  }

  /**
   * An executor as {@link #LocalProcessExecutor(TaskContainment, Duration)} which, when the containment
   * can, limits an attempt's memory to its reservation plus a {@linkplain #memoryLimit(long) margin} if its
   * request says so ({@link LaunchRequest#enforceMemory()}) or, when the request leaves it open,
   * {@code settings}' {@link LocalSettings#enforceMemory()}; keeps each attempt's output and error files
   * within its {@link LocalSettings#logCapBytes()} (see {@link LogCap}), checked on each sample and when
   * the attempt ends; and whose tasks do not inherit the variables named in {@code withheld}.
   */
  public LocalProcessExecutor(TaskContainment containment, Duration sampleEvery, LocalSettings settings,
      Set<String> withheld) {
    this(Spawner.detect(), containment, sampleEvery, settings, withheld);
  }

  /** An executor as above starting its processes with {@code spawner}. */
  LocalProcessExecutor(Spawner spawner, TaskContainment containment, Duration sampleEvery, LocalSettings settings,
      Set<String> withheld) {
    this.spawner = Objects.requireNonNull(spawner, "spawner");
    this.withheld = Set.copyOf(withheld);
    this.settings = Objects.requireNonNull(settings, "settings");
    this.containment = Objects.requireNonNull(containment, "containment");
    long millis = Math.max(50, sampleEvery.toMillis());
    killTimer.scheduleAtFixedRate(() -> live.forEach(LocalExecution::sample), millis, millis, TimeUnit.MILLISECONDS);
  }

  /**
   * Binds the C library's spawn functions (through JNA, whose own native library loads first) now,
   * on the calling thread, as the first executor would: a thread that starts early keeps that work
   * off the path to a run's first task.
   */
  public static void prepare() {
    Spawner.describeAvailable();
  }

  /** How executors made now start processes, for people ({@code berth devices}): {@code posix_spawn}. */
  public static String describeSpawning() {
    return Spawner.describeAvailable();
  }

  /** How this executor starts processes, for people: {@code posix_spawn}. */
  public String spawning() {
    return spawner.describe();
  }

  /** How this executor keeps each attempt's processes together, for people ({@code berth devices}). */
  public TaskContainment containment() {
    return containment;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The working directory and the folders of the output files are created when missing. The
   * listener may be called before this method returns, always on an executor thread.
   *
   * @throws IllegalStateException when the executor is closed
   */
  @Override
  public Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(onExit, "onExit");
    if (exitThreads.isShutdown()) {
      throw new IllegalStateException("executor is closed");
    }
    LaunchPreparation.createFolders(request, (reason, cause) -> failure(request, reason, cause));
    Path program = LaunchPreparation.program(request).orElseThrow(() -> failure(request,
        "No such file or directory (or not executable)", new FileNotFoundException(request.command().get(0))));
    Container container = open(request);
    Spawned process;
    try {
      process = spawner.spawn(request, Supervision.of(request, program), container, withheld);
    } catch (IOException | RuntimeException e) {
      container.close();
      throw failure(request, e.getMessage(), e);
    }
    LocalExecution execution = new LocalExecution(process, container, killTimer,
        () -> List.of(request.stdout(), request.stderr()).forEach(log -> LogCap.cut(log, settings.logCapBytes())));
    live.add(execution);
    try {
      // execute(), so a throwing listener surfaces through the uncaught-exception handler.
      exitThreads.execute(() -> awaitExit(process, execution, onExit));
    } catch (RejectedExecutionException e) {
      live.remove(execution); // closed meanwhile: as for every exit after close(), nothing is reported
      process.release();
    }
    return execution;
  }

  /**
   * Waits for the process on this exit thread; what the task left running ends with it, and its
   * usage is read, before the exit is reported; its container is removed after. A thread interrupted
   * by {@link #close()} reports nothing.
   */
  private void awaitExit(Spawned process, LocalExecution execution, ExitListener onExit) {
    Thread self = Thread.currentThread();
    int code;
    try {
      waiting.add(self);
      if (exitThreads.isShutdown()) {
        process.release();
        return; // closed before this thread began to wait: close() did not see it to wake it
      }
      code = process.waitFor();
    } catch (InterruptedException e) {
      return;
    } finally {
      synchronized (waiting) {
        waiting.remove(self);
      }
    }
    if (Thread.interrupted()) {
      return; // closed just as the process ended
    }
    execution.ended();
    try {
      onExit.exited(code);
    } finally {
      execution.removeContainer();
      live.remove(execution);
      if (exitThreads.isShutdown() && live.isEmpty()) {
        containment.close(); // the last attempt of a closed executor ended: nothing of Berth's stays
      }
    }
  }

  /**
   * The attempt's container; when the containment cannot make one (a cgroup folder refused, say),
   * the process-tree fallback, so the attempt still runs and its processes still end with it.
   */
  private Container open(LaunchRequest request) {
    String name = "task-" + containers.incrementAndGet();
    try {
      return containment.open(name, memoryLimitOf(request));
    } catch (IOException | RuntimeException e) {
      return TaskContainment.processTree(name);
    }
  }

  /**
   * The memory limit the attempt of {@code request} gets, 0 for none: its task's (or group's)
   * {@code enforce-memory} beats this executor's default; nothing is limited where the containment cannot
   * limit memory, or for an attempt that reserved none.
   */
  long memoryLimitOf(LaunchRequest request) {
    long reserved = request.reservation().memoryBytes();
    boolean limit = request.enforceMemory().orElse(settings.enforceMemory()) && containment.limitsMemory();
    return limit && reserved > 0 ? memoryLimit(reserved) : 0;
  }

  /**
   * The memory limit of an attempt that reserved {@code reservedBytes}: the reservation plus 10%, at
   * least {@value #MIN_MARGIN_BYTES} bytes, for what the reservation does not count (the page cache
   * of files the task reads, the joining shell).
   */
  public static long memoryLimit(long reservedBytes) {
    return reservedBytes + Math.max(MIN_MARGIN_BYTES, reservedBytes / 10);
  }

  /**
   * Stops the exit and kill threads: forced kills that {@link Execution#terminate(long)} scheduled
   * happen at once, on the calling thread, rather than after their grace (better an early kill than
   * a process tree that outlives its scheduler); exits after this call are not reported. Running
   * processes nobody terminated are not touched.
   */
  @Override
  public void close() {
    exitThreads.shutdown();
    synchronized (waiting) {
      waiting.forEach(Thread::interrupt); // only threads still waiting for a process: they report nothing
    }
    spawner.close();
    killTimer.shutdownNow().forEach(Runnable::run);
    if (live.isEmpty()) {
      containment.close();
    }
  }

  /**
   * Waits, after {@link #close()}, until the exit and kill threads have ended.
   *
   * @return whether they ended within {@code millis}
   */
  public boolean awaitTermination(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    return exitThreads.awaitTermination(millis, TimeUnit.MILLISECONDS)
        && killTimer.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
  }

  private static LaunchException failure(LaunchRequest request, String reason, Exception cause) {
    return new LaunchException(
        "cannot start '" + request.command().get(0) + "' for task " + request.task() + " attempt "
            + request.attempt() + ": " + reason,
        cause);
  }
}
