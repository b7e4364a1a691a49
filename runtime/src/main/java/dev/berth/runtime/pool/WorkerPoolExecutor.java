package dev.berth.runtime.pool;

import dev.berth.core.model.PoolSpec;
import dev.berth.core.scheduling.JobLimit;
import dev.berth.os.DaemonThreads;
import dev.berth.os.LaunchPreparation;
import dev.berth.protocol.pool.EngineHelper;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Runs call tasks of a pool ({@code call:} or {@code java:} with {@code pool:}) in the pool's warm engines and hands
 * every other attempt to the executor it wraps. A call is an attempt like any other: the scheduler
 * admitted and placed it, and its {@link Execution} behaves as a process's: its pid is its engine's,
 * ending it ends the engine (which the pool replaces), it exits 0 when the function returned and 1
 * when it raised (the traceback in its standard error), and with the engine's exit code when the
 * engine died under it.
 *
 * <p>Engines run {@code python3 -u berth_engine.py engine}, or for Java tasks
 * {@code java -cp CP dev.berth.task.worker.WorkerMain engine}, with the environment of the call that
 * started them, less Berth's task variables (each call gets its own), in their own session, with
 * their standard error in {@code pools/POOL/engine-N.log} under the run folder.
 */
public final class WorkerPoolExecutor implements Executor {

  private static final Optional<String> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
      .filter(p -> Files.isExecutable(Path.of(p))).findFirst();

  private final Executor processes;
  private final Set<String> withheld;
  private final Map<String, WorkerPool> pools = new TreeMap<>();
  private final Map<String, AtomicInteger> engineNumbers = new TreeMap<>();
  private final ScheduledThreadPoolExecutor killTimer =
      new ScheduledThreadPoolExecutor(1, DaemonThreads.named("berth-pool-kill", false));
  private final ThreadFactory readers = DaemonThreads.named("berth-pool-engine", true);

  /**
   * An executor running pool calls in engines and everything else through {@code processes}; engines
   * do not inherit the variables named in {@code withheld} (Berth's secrets).
   */
  public WorkerPoolExecutor(Executor processes, Set<String> withheld) {
    this.processes = processes;
    this.withheld = Set.copyOf(withheld);
  }

  @Override
  public Execution launch(LaunchRequest request, ExitListener onExit) throws LaunchException {
    Optional<CallRequest> call = CallRequest.of(request);
    if (call.isEmpty()) {
      if (EngineHelper.runs(request.command())) {
        writeHelper(request); // a call task without a pool runs the helper as a process
      }
      return processes.launch(request, onExit);
    }
    if (call.get().kind() == CallRequest.Kind.JAVA) {
      // A Python engine makes the task's folder itself when it begins the call, off Berth's loop.
      LaunchPreparation.createFolders(request, (reason, cause) -> new LaunchException(
          "cannot start the call of task " + request.task() + ": " + reason, cause));
    }
    WorkerPool pool = pool(call.get().pool());
    PoolCall execution = new PoolCall(request, call.get(), onExit, pool);
    pool.submit(execution);
    return execution;
  }

  private static void writeHelper(LaunchRequest request) throws LaunchException {
    try {
      EngineHelper.written();
    } catch (java.io.UncheckedIOException e) {
      throw new LaunchException("cannot start the call of task " + request.task() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<Execution> reattach(LaunchRequest request, ExitListener onExit) {
    return processes.reattach(request, onExit);
  }

  @Override
  public boolean holdsUpstream() {
    return processes.holdsUpstream();
  }

  @Override
  public List<JobLimit> jobLimits() {
    return processes.jobLimits();
  }

  /** The engines of pool {@code name} now, e.g. {@code [fast/engine-1]}. */
  public List<String> engines(String name) {
    WorkerPool pool;
    synchronized (pools) {
      pool = pools.get(name);
    }
    return pool == null ? List.of() : pool.engineNames();
  }

  /** How many calls of pool {@code name} wait in the pool for an engine (not those queued in one). */
  int waiting(String name) {
    WorkerPool pool;
    synchronized (pools) {
      pool = pools.get(name);
    }
    return pool == null ? 0 : pool.waitingCalls();
  }

  /**
   * Host memory live engines hold beyond what they were last measured at: for each engine of a pool
   * with {@code memory}, that minus its resident memory after its last call (all of it before one).
   */
  public long heldMemoryBytes() {
    List<WorkerPool> all;
    synchronized (pools) {
      all = List.copyOf(pools.values());
    }
    return all.stream().mapToLong(WorkerPool::heldMemoryBytes).sum();
  }

  /** {@code probe}, with what live engines hold counted as used (see {@link WorkerHoldings}). */
  public dev.berth.spi.HostProbe holding(dev.berth.spi.HostProbe probe) {
    return new WorkerHoldings(probe, this::heldMemoryBytes);
  }

  /**
   * GPU memory live engines pinned to {@code device} hold beyond what the reading shows their
   * processes using: for each engine of a pool with {@code gpu-memory}, that minus its process's use.
   */
  public long heldGpuMemoryBytes(dev.berth.core.gpu.GpuDevice device) {
    List<WorkerPool> all;
    synchronized (pools) {
      all = List.copyOf(pools.values());
    }
    return all.stream().mapToLong(p -> p.heldGpuMemoryBytes(device)).sum();
  }

  /** {@code probe}, with what live engines hold on each device counted as used (see {@link WorkerGpuHoldings}). */
  public dev.berth.spi.GpuProbe holdingGpus(dev.berth.spi.GpuProbe probe) {
    return new WorkerGpuHoldings(probe, this::heldGpuMemoryBytes);
  }

  /** Lets every engine leave once its calls are answered, then closes the wrapped executor. */
  @Override
  public void close() {
    synchronized (pools) {
      pools.values().forEach(WorkerPool::close);
    }
    killTimer.shutdown();
    processes.close();
  }

  private WorkerPool pool(PoolSpec spec) {
    synchronized (pools) {
      return pools.computeIfAbsent(spec.name(), n -> new WorkerPool(spec, this::start, killTimer));
    }
  }

  private WarmWorker start(PoolCall forCall) throws LaunchException {
    CallRequest call = forCall.call();
    LaunchRequest request = forCall.request();
    int number;
    synchronized (pools) {
      number = engineNumbers.computeIfAbsent(call.pool().name(), n -> new AtomicInteger()).incrementAndGet();
    }
    String name = call.pool().name() + "/engine-" + number;
    List<String> argv = new ArrayList<>();
    SETSID.ifPresent(argv::add);
    if (call.kind() == CallRequest.Kind.PYTHON) {
      writeHelper(request);
    }
    argv.addAll(call.engineCommand());
    Path runDir = Path.of(request.env().getOrDefault("BERTH_RUN_DIR", request.workdir().toString()));
    Path log = runDir.resolve("pools").resolve(call.pool().name()).resolve("engine-" + number + ".log");
    ProcessBuilder builder = new ProcessBuilder(argv).directory(runDir.toFile()).redirectError(Redirect.appendTo(log.toFile()));
    builder.environment().keySet().removeAll(withheld);
    request.env().forEach((k, v) -> {
      if (!k.startsWith("BERTH_")) {
        builder.environment().put(k, v);
      }
    });
    builder.environment().put("BERTH_ENGINE", name);
    Process process;
    try {
      Files.createDirectories(log.getParent());
      process = builder.start();
    } catch (IOException | RuntimeException e) {
      throw new LaunchException("cannot start engine " + name + " ('" + call.launcher().get(0) + "') for task "
          + request.task() + ": " + e.getMessage(), e);
    }
    WarmWorker engine = new WarmWorker(name, call.device(), call.launcher(), process);
    WorkerPool pool = pool(call.pool());
    engine.listen(pool::replied, pool::exited, r -> readers.newThread(r).start());
    return engine;
  }
}
