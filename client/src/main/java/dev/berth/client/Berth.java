package dev.berth.client;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.journal.SpecCodec;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.os.SystemTimers;
import dev.berth.report.Objective;
import dev.berth.report.ReportFiles;
import dev.berth.report.ReportOptions;
import dev.berth.report.SweepTable;
import dev.berth.runtime.control.CancelRequests;
import dev.berth.runtime.control.RunLock;
import dev.berth.runtime.engine.Engine;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.gpu.GpuProbes;
import dev.berth.runtime.probe.OshiHostProbe;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.Journal;
import dev.berth.spi.Timers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Berth session: one scheduler that runs tasks as they are submitted, within the machine's
 * limits, until it is closed. fedflow's {@code with FedFlow() as flow: flow.execute(group)} is
 *
 * <pre>{@code
 * try (Berth berth = Berth.local(BerthOptions.builder().name("mnist").build())) {
 *   GroupResult r = berth.execute(Groups.of("train", Tasks.command("t0", "python3", "train.py")));
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> {@link #local} starts one engine on a daemon thread named
 * {@code berth-session-<name>}, which owns every scheduling decision; the session's other threads
 * (timers, exit and kill helpers, {@code berth-callbacks-*} that complete handles' futures) are
 * daemons too, so a forgotten session never keeps the JVM alive; a shutdown hook cancels a session
 * still open when the JVM exits, so its processes do not outlive it.
 *
 * <p><b>Closing.</b> {@link #close()} cancels whatever has not ended (tasks not started end as
 * {@code CANCELLED}; running process trees get SIGTERM, and SIGKILL if still alive 5 s later),
 * waits for the engine to end, writes the reports, stops every thread the session started and
 * releases the folder's lock; it returns when all of that is done, so no task process and no
 * {@code berth-*} thread of the session is left. To let tasks finish, wait for them ({@link #execute}, {@link TaskHandle#get()}) before
 * closing. Every method except {@link #close()} and the getters throws {@link IllegalStateException}
 * once the session is closed.
 *
 * <p><b>Groups.</b> The session's groups do not wait for each other: groups submitted by different
 * threads, tasks from {@link #submit} and {@link #map} all share the machine, ordered only by their
 * dependencies and priorities. fedflow's order comes from the calls: {@link #execute} returns when
 * its group ended, and {@link #start()} runs the added groups one after another. Group names and
 * task ids are unique within a session: give repeated rounds distinct ids ({@code r3-train-0}).
 *
 * <p>Thread-safe.
 */
public final class Berth implements AutoCloseable {

  private final BerthOptions options;
  private final RunLayout layout;
  private final Object lock = new Object();
  private final Map<String, List<String>> known = new LinkedHashMap<>();
  private final List<Object> batch = new ArrayList<>();
  private final Set<MapResults> maps = ConcurrentHashMap.newKeySet();
  private final ThreadGroup threads;
  private final ThreadPoolExecutor callbacks;
  private final Registry registry;
  private final Executor executor;
  private final ProcessGuard guard;
  private final GpuProbe gpuProbe;
  private final SystemTimers systemTimers;
  private final RunLock runLock;
  private final Engine engine;
  private final Thread loop;
  private final Thread shutdownHook;
  private final SessionJournal journal;
  private final boolean resumed;
  /** Every task's handle, resumed or submitted, in submission order. */
  private final Map<String, TaskHandle> handles = new LinkedHashMap<>();
  /** Groups resumed from the journal that this process has not submitted again yet. */
  private final Map<String, GroupSpec> unclaimed = new LinkedHashMap<>();
  private final Map<String, GroupHandle> unclaimedHandles = new LinkedHashMap<>();
  private volatile boolean closed;
  private volatile Throwable engineFailure;
  private RunReport finalReport;
  private int mapCount;
  private int tuneCount;

  private Berth(BerthOptions options, RunLock runLock, GpuProbe gpuProbe, SessionJournal.Opened opened) {
    this.options = options;
    this.journal = opened.journal();
    this.resumed = opened.replay().isPresent();
    this.layout = new RunLayout(options.workdir());
    this.runLock = runLock;
    this.gpuProbe = gpuProbe;
    String name = options.name();
    this.threads = new ThreadGroup("berth-session-" + name);
    AtomicInteger callbackCount = new AtomicInteger();
    this.callbacks = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
      Thread t = new Thread(threads, r, "berth-callbacks-" + name + "-" + callbackCount.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.registry = new Registry(callbacks, options.listener(), layout);
    Optional<Executor> given = options.executor();
    if (given.isPresent()) {
      this.executor = given.get();
      this.guard = null;
    } else {
      this.guard = new ProcessGuard(new LocalProcessExecutor());
      this.executor = guard;
    }
    HostProbe hostProbe = options.hostProbe().orElseGet(OshiHostProbe::new);
    InstantSource clock;
    Timers timers;
    if (options.clock().isPresent()) {
      clock = options.clock().get();
      timers = options.timers().orElseThrow();
      this.systemTimers = null;
    } else {
      clock = InstantSource.system();
      this.systemTimers = new SystemTimers(e -> System.err.println("berth: timer failed: " + e));
      timers = systemTimers;
    }
    RunSpec spec = sessionSpec(options, opened.storedSpec().map(RunSpec::groups).orElse(List.of()));
    this.engine = new Engine(spec, layout, executor, hostProbe, gpuProbe, clock, timers, registry).keepOpen()
        .journal(journal, SpecCodec::encode);
    opened.replay().ifPresent(this::restore);
    this.loop = new Thread(threads, this::runEngine, "berth-session-" + name);
    loop.setDaemon(true);
    this.shutdownHook = new Thread(this::jvmExit, "berth-session-shutdown-" + name);
  }

  /**
   * Opens a session on this machine: a {@code LocalProcessExecutor}, an OSHI host probe, the GPU
   * probe the options select and the system clock, with the engine running on its own thread.
   *
   * <p>The session keeps a journal in {@code <workdir>/.berth/journal.db}. When the folder holds a
   * session that did not finish (its process died, or {@code close()} was not reached), this one
   * resumes it: its tasks are back, with their handles ({@link #handle}, {@link #handles()}), tasks
   * that ended before are not run again, running attempts are adopted or settled as
   * {@code berth resume} does, and groups submitted again unchanged return the resumed handles.
   * A folder whose session finished is refused unless the options ask for
   * {@link BerthOptions.Builder#fresh(boolean) fresh(true)}.
   *
   * @throws IllegalStateException when another Berth run holds the session's folder, when the
   *     folder holds a finished session and the options do not ask for a fresh one, or when its
   *     journal cannot be read
   * @throws IllegalArgumentException when the selected GPU indices do not exist
   * @throws UncheckedIOException when the folder cannot be created or moved aside
   */
  public static Berth local(BerthOptions options) {
    Path runDir = options.workdir().toAbsolutePath().normalize();
    Instant now = options.clock().map(InstantSource::instant).orElseGet(Instant::now);
    long pid = ProcessHandle.current().pid();
    RunLock runLock;
    try {
      if (options.fresh()) {
        RunLock.setAside(runDir, pid, now);
      }
      Files.createDirectories(runDir);
      runLock = RunLock.acquire(runDir, pid, now);
    } catch (RunLock.LockedException e) {
      throw new IllegalStateException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the session folder " + runDir, e);
    }
    GpuProbe gpuProbe = null;
    SessionJournal.Opened opened = null;
    try {
      opened = SessionJournal.open(runDir, sessionSpec(options, List.of()), now);
      gpuProbe = options.gpuProbe()
          .orElseGet(() -> GpuProbes.select(DeviceSelection.parse(options.gpus()), new ProcessCommandRunner()));
      Berth berth = new Berth(options, runLock, gpuProbe, opened);
      Runtime.getRuntime().addShutdownHook(berth.shutdownHook);
      berth.loop.start();
      return berth;
    } catch (RuntimeException | Error e) {
      if (gpuProbe != null) {
        gpuProbe.close();
      }
      if (opened != null) {
        closeQuietly(opened.journal());
      }
      closeQuietly(runLock);
      throw e;
    }
  }

  /** The session's run spec: the options' name, folder, configuration, GPUs and objective, with these groups. */
  private static RunSpec sessionSpec(BerthOptions options, List<GroupSpec> groups) {
    return new RunSpec(options.name(), options.workdir().toString(), options.config(), groups, true, options.gpus(),
        RunBuilder.reporting(options.objective().orElse(null), null, List.of()));
  }

  /**
   * Folds what the journal holds into the engine and makes a handle for every task it had: tasks
   * that ended are complete handles, the others are fed by the engine like new ones. Before the
   * engine starts, on the opening thread.
   */
  private void restore(Journal.Replay replay) {
    engine.resume(replay);
    for (GroupSpec g : engine.state().spec().groups()) {
      List<TaskHandle> group = new ArrayList<>();
      for (TaskSpec t : g.tasks()) {
        TaskHandle h = new TaskHandle(t.id().value(), g.name(), layout.taskDir(t), this);
        registry.restore(h, engine.state().task(t.id()));
        handles.put(h.id(), h);
        group.add(h);
      }
      known.put(g.name(), taskIds(g));
      unclaimed.put(g.name(), g);
      unclaimedHandles.put(g.name(), new GroupHandle(g.name(), group));
    }
  }

  /** Opens a session with {@link BerthOptions#defaults()}. */
  public static Berth local() {
    return local(BerthOptions.defaults());
  }

  /** The session's name: the run name of its report. */
  public String name() {
    return options.name();
  }

  /** The session's folder, absolute. */
  public Path workdir() {
    return layout.runDir();
  }

  /** The scheduler configuration the session runs with. */
  public SchedulerConfig config() {
    return options.config();
  }

  /** The options the session was opened with. */
  public BerthOptions options() {
    return options;
  }

  /** Whether this session resumed an unfinished one from its folder's journal. */
  public boolean resumed() {
    return resumed;
  }

  /**
   * The handle of a task of this session, submitted by this process or resumed from the journal;
   * empty for an id the session does not know.
   */
  public Optional<TaskHandle> handle(String taskId) {
    synchronized (lock) {
      return Optional.ofNullable(handles.get(taskId));
    }
  }

  /** Every task's handle, resumed ones first, in submission order. */
  public List<TaskHandle> handles() {
    synchronized (lock) {
      return List.copyOf(handles.values());
    }
  }

  /** Whether the session is open. */
  public boolean isOpen() {
    return !closed;
  }

  /** The final report ({@code report.json}) once the session is closed; empty before, or when the engine failed. */
  public Optional<RunReport> report() {
    synchronized (lock) {
      return Optional.ofNullable(finalReport);
    }
  }

  // ---------------------------------------------------------------- fedflow: groups and tasks

  /**
   * Runs a group and returns when every task of it ended (fedflow's {@code flow.execute(group)}).
   * The group's defaults and the session's configuration fill what its tasks leave unset;
   * dependencies may name tasks of this group and of anything submitted before.
   *
   * @throws IllegalArgumentException when the group breaks a rule (a name or id already used in
   *     the session, a dependency on no task, a value out of range), before anything starts
   * @throws IllegalStateException when the session is closed
   */
  public GroupResult execute(GroupBuilder group) throws InterruptedException {
    return submitGroup(group).get();
  }

  /** Runs a group given in the core model's form; see {@link #execute(GroupBuilder)}. */
  public GroupResult execute(GroupSpec group) throws InterruptedException {
    return submitGroup(group).get();
  }

  /** Submits a group and returns at once; see {@link #execute(GroupBuilder)}. */
  public GroupHandle submitGroup(GroupBuilder group) {
    synchronized (lock) {
      ensureOpen();
      return register(resolve(group.pending(), visible()));
    }
  }

  /** Submits a group given in the core model's form and returns at once. */
  public GroupHandle submitGroup(GroupSpec group) {
    synchronized (lock) {
      ensureOpen();
      return register(group);
    }
  }

  /**
   * Runs one task alone in a group named after it (fedflow's {@code execute_task}) and returns
   * when it ended. The group's name is the task's id, or the id with {@code -2}, {@code -3}, ...
   * when that name is taken.
   */
  public TaskResult executeTask(TaskBuilder task) throws InterruptedException {
    return submit(task).get();
  }

  /** Runs one task given in the core model's form; see {@link #executeTask(TaskBuilder)}. */
  public TaskResult executeTask(TaskSpec task) throws InterruptedException {
    return submit(task).get();
  }

  // ---------------------------------------------------------------- ipyparallel: handles

  /**
   * Submits one task in a group of its own (named as {@link #executeTask} names it) and returns its
   * handle at once (ipyparallel's {@code apply_async}).
   *
   * @throws IllegalArgumentException when the id is already used in the session or a dependency names no task
   * @throws IllegalStateException when the session is closed
   */
  public TaskHandle submit(TaskBuilder task) {
    synchronized (lock) {
      ensureOpen();
      String group = freeGroupName(task.id());
      return register(resolve(GroupDraft.alone(group, task), visible())).tasks().get(0);
    }
  }

  /** Submits one task given in the core model's form; see {@link #submit(TaskBuilder)}. */
  public TaskHandle submit(TaskSpec task) {
    synchronized (lock) {
      ensureOpen();
      String group = freeGroupName(task.id().value());
      return register(new GroupSpec(group, List.of(Groups.inGroup(task, group)))).tasks().get(0);
    }
  }

  /**
   * Cancels the tasks matching any of these patterns (ids, globs such as {@code train-*}, or
   * {@code group:NAME}); with none, every task not ended, while the session stays open for more.
   */
  public void cancel(String... patterns) {
    ensureOpen();
    if (patterns.length == 0) {
      engine.cancelMatching(List.of("*"), "cancelled by the caller");
    } else {
      engine.cancelMatching(Arrays.asList(patterns), "cancelled by the caller");
    }
  }

  void cancelTask(String id) {
    engine.cancel(List.of(TaskId.of(id)), "cancelled by the caller");
  }

  // ---------------------------------------------------------------- fedflow: batch mode

  /** Adds a group to the batch that {@link #start()} runs (fedflow's {@code FedFlow.add_group}). */
  public void add(GroupBuilder group) {
    GroupDraft pending = group.pending();
    synchronized (lock) {
      ensureOpen();
      batch.add(pending);
    }
  }

  /** Adds a group in the core model's form to the batch, e.g. each group of a loaded spec. */
  public void add(GroupSpec group) {
    synchronized (lock) {
      ensureOpen();
      batch.add(group);
    }
  }

  /**
   * Runs the added groups one after another, each once the previous one ended, and empties the
   * batch (fedflow's {@code FedFlow.start()}). Every group is checked before the first starts. A
   * group whose tasks failed does not stop the next: tasks that depend on failed ones end as unreachable.
   *
   * @throws IllegalArgumentException when a group breaks a rule; then nothing starts
   */
  public BatchResult start() throws InterruptedException {
    List<GroupSpec> groups;
    synchronized (lock) {
      ensureOpen();
      groups = resolveBatch();
      batch.clear();
    }
    List<GroupResult> results = new ArrayList<>();
    for (GroupSpec g : groups) {
      results.add(submitGroup(g).get());
    }
    return new BatchResult(results);
  }

  /** A dry run of the batch: every task {@link #start()} would run, with its effective requests. */
  public Plan plan() {
    synchronized (lock) {
      ensureOpen();
      return Plan.of(name(), resolveBatch());
    }
  }

  private List<GroupSpec> resolveBatch() {
    Map<String, List<String>> simulated = new LinkedHashMap<>(visible());
    List<GroupSpec> out = new ArrayList<>();
    for (Object item : batch) {
      GroupSpec spec = item instanceof GroupDraft p ? resolve(p, simulated) : check((GroupSpec) item, simulated);
      simulated.put(spec.name(), taskIds(spec));
      out.add(spec);
    }
    return out;
  }

  // ---------------------------------------------------------------- ipyparallel: map

  /** {@link #map(List, List, MapOptions)} with {@link MapOptions#defaults()}. */
  public MapResults map(List<String> argv, List<?> inputs) {
    return map(argv, inputs, MapOptions.defaults());
  }

  /**
   * Runs {@code argv} once per input (ipyparallel's {@code imap}) and streams the results as the
   * tasks end. In {@code argv}, {@code {}} is the input as text; for an input that is a
   * {@code Map}, {@code {key}} is its value for {@code key}; {@code {index}} is the input's position.
   * Task {@code i} has the id {@code <prefix>-<i>} and runs in a group of its own. Each result's
   * value is the task's result map ({@code result.json}) or, without one, its standard output.
   *
   * @throws IllegalArgumentException when a placeholder has no value, before anything starts
   */
  public MapResults map(List<String> argv, List<?> inputs, MapOptions options) {
    String prefix;
    synchronized (lock) {
      ensureOpen();
      prefix = options.idPrefix();
      if (prefix == null) {
        do {
          prefix = "map" + (++mapCount);
        } while (idTaken(prefix + "-0") && !resumedTask(prefix + "-0"));
      }
    }
    return map(Tasks.template(prefix + "-{index}", argv), inputs, options);
  }

  /**
   * Runs a template once per input; like {@link #map(List, List, MapOptions)}, with the id, the
   * settings (memory, cpus, ...) and the command taken from the template, whose placeholders are
   * filled as there. The ids must differ per input: use {@code {index}} or an input key in the id.
   */
  public MapResults map(TaskTemplate template, List<?> inputs, MapOptions options) {
    ensureOpen();
    List<TaskBuilder> tasks = new ArrayList<>();
    Set<String> ids = new java.util.HashSet<>();
    for (int i = 0; i < inputs.size(); i++) {
      Object input = inputs.get(i);
      Map<String, String> values = new LinkedHashMap<>();
      Map<String, String> params = new LinkedHashMap<>();
      String bare = null;
      if (input instanceof Map<?, ?> m) {
        m.forEach((k, v) -> values.put(String.valueOf(k), Placeholders.text(v)));
        params.putAll(values);
      } else {
        bare = Placeholders.text(input);
        params.put("input", bare);
      }
      values.putIfAbsent("index", Integer.toString(i));
      TaskBuilder t = template.expand(values, bare, params);
      if (!ids.add(t.id())) {
        throw new IllegalArgumentException("template '" + template.id() + "' gives the id '" + t.id()
            + "' to two inputs; put {index} in the id");
      }
      tasks.add(t);
    }
    synchronized (lock) {
      for (TaskBuilder t : tasks) {
        if (idTaken(t.id()) && !resumedTask(t.id())) {
          throw new IllegalArgumentException("task id '" + t.id() + "' is already used in this session; task ids must be unique");
        }
      }
    }
    MapResults results = new MapResults(this, inputs, tasks, options);
    maps.add(results);
    results.start();
    if (closed) {
      results.stop("the session was closed");
    }
    return results;
  }

  TaskHandle submitForMap(TaskBuilder task) {
    return submit(task);
  }

  // ---------------------------------------------------------------- FLGo: tune

  /**
   * A grid search (FLGo's {@code tune}): one task per combination of the grid's values, the keys
   * in the map's iteration order (use a {@link LinkedHashMap}) and the last key varying fastest, as
   * a spec's matrix; all run as one group through the scheduler, and are ranked by the objective's
   * key in each task's {@code result.json}, in its direction; tasks lacking the key rank last.
   * The template's id should name every key that takes more than one value, e.g. {@code trial-{lr}-{batch}}.
   *
   * @return the ranked trials, the best option, and the sweep table the reports show
   * @throws IllegalArgumentException when the grid or the template is invalid, before anything starts
   */
  public TuneResult tune(Map<String, ? extends List<?>> grid, TaskTemplate template, Objective objective)
      throws InterruptedException {
    List<TaskBuilder> trials = GroupBuilder.expand(template, grid);
    String group;
    synchronized (lock) {
      ensureOpen();
      do {
        group = "tune" + (++tuneCount);
      } while (known.containsKey(group) && !unclaimed.containsKey(group));
    }
    GroupResult result = execute(Groups.builder(group).tasks(trials));
    Map<String, Map<String, Object>> results = new LinkedHashMap<>();
    for (TaskResult t : result.tasks()) {
      try {
        t.resultIfAny().ifPresent(r -> results.put(t.id(), r));
      } catch (IllegalStateException unreadable) {
        // a malformed result.json: the trial has no value and ranks last
      }
    }
    GroupReport sweep = result.report();
    RunReport report = new RunReport(name(), result.succeeded() ? RunStatus.SUCCEEDED : RunStatus.FAILED,
        Instant.EPOCH, null, sweep.totals(), List.of(sweep));
    SweepTable table = SweepTable.of(report, results, objective);
    List<TuneResult.Trial> ranked = new ArrayList<>();
    for (SweepTable.Row row : table.rows()) {
      ranked.add(new TuneResult.Trial(option(grid, row.params()), result.task(row.taskId()),
          row.value(objective.key()).orElse(null)));
    }
    return new TuneResult(objective, table, ranked, result);
  }

  private static Map<String, Object> option(Map<String, ? extends List<?>> grid, Map<String, String> params) {
    Map<String, Object> option = new LinkedHashMap<>();
    grid.forEach((key, values) -> values.stream()
        .filter(v -> Placeholders.text(v).equals(params.get(key)))
        .findFirst()
        .ifPresent(v -> option.put(key, v)));
    return java.util.Collections.unmodifiableMap(option);
  }

  // ---------------------------------------------------------------- closing

  /**
   * Cancels what has not ended, waits for the engine to end, writes the reports, stops the
   * session's threads and releases its folder; see the class comment. Does nothing when already
   * closed.
   *
   * @throws IllegalStateException when called from the engine's thread (a {@code RunListener})
   * @throws UncheckedIOException when the reports cannot be written (everything else is closed first)
   */
  @Override
  public void close() {
    if (Thread.currentThread() == loop) {
      throw new IllegalStateException("close() must not be called from the engine's thread (a RunListener)");
    }
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    maps.forEach(m -> m.stop("the session was closed"));
    if (registry.unfinished() > 0) {
      engine.cancel("the session was closed");
    } else {
      engine.closeSubmissions();
    }
    boolean interrupted = false;
    interrupted |= joinUninterruptibly(loop, 0);
    closeQuietly(journal); // the engine recorded the session's end (unless it failed: then it stays resumable)
    if (guard != null) {
      guard.close();
    } else {
      executor.close();
    }
    if (systemTimers != null) {
      systemTimers.close();
    }
    gpuProbe.close();
    callbacks.shutdown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    try {
      callbacks.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    interrupted |= joinHelpers(deadline);
    closeQuietly(runLock);
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the JVM is exiting; the hook is what runs now
    }
    RunReport report = registry.finished.isDone() && !registry.finished.isCompletedExceptionally()
        ? registry.finished.join() : null;
    synchronized (lock) {
      finalReport = report;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (report != null && options.writeReports()) {
      try {
        ReportFiles.writeAll(report, layout.runDir(), ReportOptions.defaults().withObjective(options.objective().orElse(null)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the reports into " + layout.runDir(), e);
      }
    }
  }

  /** Waits for every helper thread of the session to end; true when interrupted meanwhile. */
  private boolean joinHelpers(long deadline) {
    boolean interrupted = false;
    List<Thread> helpers = new ArrayList<>();
    Thread[] found = new Thread[threads.activeCount() + 16];
    int n = threads.enumerate(found, true);
    helpers.addAll(Arrays.asList(found).subList(0, n));
    if (guard != null) {
      helpers.addAll(guard.threads());
      try {
        guard.awaitExecutor(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    for (Thread t : helpers) {
      if (t != Thread.currentThread()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        interrupted |= joinUninterruptibly(t, Math.max(1, left));
      }
    }
    return interrupted;
  }

  private static boolean joinUninterruptibly(Thread t, long millis) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join(millis);
        return interrupted;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
  }

  /**
   * The JVM exits with the session open: its task processes must not outlive it, but the session
   * is not over, so nothing of this is journalled and the next session on the folder resumes it.
   */
  private void jvmExit() {
    if (!closed) {
      journal.detach();
      if (guard != null) {
        guard.abandon();
      } else {
        engine.cancel("the JVM is shutting down");
        joinUninterruptibly(loop, 30_000);
      }
    }
  }

  private void runEngine() {
    CancelRequests requests = null;
    try {
      try {
        requests = CancelRequests.watch(layout.runDir(), r -> engine.cancelMatching(
            r.patterns().isEmpty() ? List.of("*") : r.patterns(), r.reason()));
      } catch (IOException e) {
        System.err.println("berth: `berth cancel` cannot reach session " + name() + ": " + e.getMessage());
      }
      engine.run();
    } catch (Throwable t) {
      engineFailure = t;
      registry.failAll(new IllegalStateException("the Berth engine of session " + name() + " stopped: " + t, t));
      if (t instanceof Error e && !(t instanceof StackOverflowError)) {
        throw e;
      }
    } finally {
      if (requests != null) {
        closeQuietly(requests);
      }
    }
  }

  // ---------------------------------------------------------------- internals

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("session " + name() + " is closed; open a new one with Berth.local(...)");
    }
    Throwable failure = engineFailure;
    if (failure != null) {
      throw new IllegalStateException("the Berth engine of session " + name() + " stopped: " + failure, failure);
    }
  }

  /**
   * Registers and submits a resolved group; the caller holds the lock. A group resumed from the
   * journal and submitted again unchanged is not added twice: its handles are returned.
   */
  private GroupHandle register(GroupSpec group) {
    GroupSpec stored = unclaimed.get(group.name());
    if (stored != null) {
      if (!stored.equals(group)) {
        throw new IllegalArgumentException("group '" + group.name() + "' was resumed from the session's journal with"
            + " other tasks or settings; submit it unchanged to get the handles of its tasks, or give it another name");
      }
      unclaimed.remove(group.name());
      return unclaimedHandles.remove(group.name());
    }
    check(group, known);
    List<TaskHandle> handles = new ArrayList<>();
    for (TaskSpec t : group.tasks()) {
      Path dir = layout.taskDir(t);
      moveAside(dir);
      handles.add(new TaskHandle(t.id().value(), group.name(), dir, this));
    }
    handles.forEach(registry::track);
    handles.forEach(h -> this.handles.put(h.id(), h));
    known.put(group.name(), taskIds(group));
    engine.submit(group).whenComplete((added, refused) -> {
      if (refused != null) {
        registry.refused(handles, refused);
      }
    });
    return new GroupHandle(group.name(), handles);
  }

  /** Resolves one group against what is known, with the session's configuration. */
  private GroupSpec resolve(GroupDraft group, Map<String, List<String>> known) {
    return GroupDraft.resolve(List.of(group), known, options.config(), "session", false).get(0);
  }

  private static List<String> taskIds(GroupSpec group) {
    return group.tasks().stream().map(t -> t.id().value()).toList();
  }

  /** Checks a group against what is known: a free name, free ids, dependencies on known tasks. */
  private static GroupSpec check(GroupSpec group, Map<String, List<String>> known) {
    if (known.containsKey(group.name())) {
      throw new IllegalArgumentException("group name '" + group.name() + "' is already used in this session; group names"
          + " must be unique");
    }
    Set<String> ids = new java.util.HashSet<>();
    known.values().forEach(ids::addAll);
    for (TaskSpec t : group.tasks()) {
      if (ids.contains(t.id().value())) {
        throw new IllegalArgumentException("task id '" + t.id() + "' is already used in this session; task ids must be unique");
      }
    }
    group.tasks().forEach(t -> ids.add(t.id().value()));
    for (TaskSpec t : group.tasks()) {
      for (TaskId dep : t.dependsOn()) {
        if (!ids.contains(dep.value())) {
          throw new IllegalArgumentException("task " + t.id() + " depends on '" + dep + "', which names no task submitted"
              + " so far");
        }
      }
    }
    return group;
  }

  /**
   * What a run of the program from its start would know at this point: every group but those
   * resumed from the journal and not submitted again yet. Dependencies are resolved against it, so
   * a group submitted again resolves exactly as it did the first time.
   */
  private Map<String, List<String>> visible() {
    if (unclaimed.isEmpty()) {
      return known;
    }
    Map<String, List<String>> visible = new LinkedHashMap<>(known);
    unclaimed.keySet().forEach(visible::remove);
    return visible;
  }

  /** Whether a task of a resumed group not submitted again has this id. */
  private boolean resumedTask(String id) {
    return unclaimed.values().stream().anyMatch(g -> g.tasks().stream().anyMatch(t -> t.id().value().equals(id)));
  }

  private boolean idTaken(String id) {
    return known.values().stream().anyMatch(ids -> ids.contains(id));
  }

  private String freeGroupName(String taskId) {
    String base = groupNameFor(taskId);
    String name = base;
    for (int i = 2; known.containsKey(name) && !unclaimed.containsKey(name); i++) {
      name = base + "-" + i;
    }
    return name;
  }

  /** A group name made from a task id: characters a group name may not have become {@code _}. */
  static String groupNameFor(String taskId) {
    String name = taskId.replaceAll("[^A-Za-z0-9._-]", "_");
    return name.equals(".") || name.equals("..") ? "_" + name : name;
  }

  Path taskDir(String group, String id) {
    return layout.runDir().resolve(group).resolve(id);
  }

  /**
   * A task folder left by an earlier session of the same name would lend its files to the new
   * task: its {@code result.json}, {@code items.json} and logs are renamed to {@code *.previous}.
   */
  private static void moveAside(Path taskDir) {
    for (String file : List.of("result.json", "items.json", "stdout.log", "stderr.log")) {
      Path f = taskDir.resolve(file);
      if (Files.exists(f)) {
        try {
          Files.move(f, taskDir.resolve(file + ".previous"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot move the earlier " + f + " aside", e);
        }
      }
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing is best effort; the session is going away
    }
  }
}
