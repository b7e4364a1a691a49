package dev.berth.client;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.RunReport;
import dev.berth.report.Objective;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.session.LocalSession;
import dev.berth.session.RunEnd;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

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
 * daemons too, so a forgotten session never keeps the JVM alive; a shutdown hook interrupts a
 * session still open when the JVM exits, so its processes do not outlive it and it resumes later.
 *
 * <p><b>Closing.</b> {@link #close()} interrupts whatever has not ended (running process trees get
 * SIGTERM, and SIGKILL if still alive 5 s later, and are recorded {@code INTERRUPTED}; tasks not
 * started stay {@code PENDING}; the next session on the folder resumes them, see {@link #local}),
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
  private final LocalSession session;
  private final Registry registry;
  private final CallbackThreads callbacks;
  private final Object lock = new Object();
  private final Submissions submitted;
  private final Set<MapResults> maps = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  private volatile Throwable engineFailure;
  private RunReport finalReport;

  private Berth(BerthOptions options, LocalSession session, Registry registry, CallbackThreads callbacks) {
    this.options = options;
    this.session = session;
    this.registry = registry;
    this.callbacks = callbacks;
    this.submitted = new Submissions(session, options.config(), registry, this);
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
    CallbackThreads callbacks = new CallbackThreads(options.name());
    Registry registry = new Registry(callbacks, options.listener(), new RunLayout(options.workdir()));
    LocalSession session = SessionOpening.open(options, registry);
    Berth berth = new Berth(options, session, registry, callbacks);
    try {
      berth.submitted.restore();
      session.start(berth::engineStopped);
      return berth;
    } catch (RuntimeException | Error e) {
      session.close();
      callbacks.close();
      throw e;
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
    return session.layout().runDir();
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
    return session.resumed();
  }

  /**
   * The handle of a task of this session, submitted by this process or resumed from the journal;
   * empty for an id the session does not know.
   */
  public Optional<TaskHandle> handle(String taskId) {
    synchronized (lock) {
      return submitted.handle(taskId);
    }
  }

  /** Every task's handle, resumed ones first, in submission order. */
  public List<TaskHandle> handles() {
    synchronized (lock) {
      return submitted.handles();
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
    return whileOpen(() -> submitted.register(submitted.resolve(group.pending())));
  }

  /** Submits a group given in the core model's form and returns at once. */
  public GroupHandle submitGroup(GroupSpec group) {
    return whileOpen(() -> submitted.register(group));
  }

  /** The session's group that tasks submitted one by one ({@link #submit}, {@link #executeTask}) join. */
  public static final String TASKS_GROUP = "tasks";

  /**
   * Runs one task (fedflow's {@code execute_task}) and returns when it ended. Like every task
   * submitted on its own, it joins the session's group {@value #TASKS_GROUP}, so it runs in
   * {@code <workdir>/tasks/<id>/}.
   */
  public TaskResult executeTask(TaskBuilder task) throws InterruptedException {
    return submit(task).get();
  }

  /** Runs one task given in the core model's form; see {@link #executeTask(TaskBuilder)}. */
  public TaskResult executeTask(TaskSpec task) throws InterruptedException {
    return submit(task).get();
  }

  /**
   * Submits one task, which joins the session's group {@value #TASKS_GROUP}, and returns its handle
   * at once (ipyparallel's {@code apply_async}). Groups run in parallel in a session, so the group
   * only names the folder the task runs in ({@code <workdir>/tasks/<id>/}) and its row in the reports.
   *
   * @throws IllegalArgumentException when the id is already used in the session or a dependency names no task
   * @throws IllegalStateException when the session is closed
   */
  public TaskHandle submit(TaskBuilder task) {
    return whileOpen(() -> submitted.registerJoining(submitted.resolveJoining(GroupDraft.alone(TASKS_GROUP, task)))
        .get(0));
  }

  /** Submits one task given in the core model's form; see {@link #submit(TaskBuilder)}. */
  public TaskHandle submit(TaskSpec task) {
    return whileOpen(() -> submitted.registerJoining(
        new GroupSpec(TASKS_GROUP, List.of(task.inGroup(TASKS_GROUP)))).get(0));
  }

  /**
   * Cancels the tasks matching any of these patterns (ids, globs such as {@code train-*}, or
   * {@code group:NAME}); with none, every task not ended, while the session stays open for more.
   */
  public void cancel(String... patterns) {
    ensureOpen();
    session.cancelMatching(patterns.length == 0 ? List.of("*") : Arrays.asList(patterns), "cancelled by the caller");
  }

  void cancelTask(String id) {
    session.cancel(List.of(TaskId.of(id)), "cancelled by the caller");
  }

  /** Adds a group to the batch that {@link #start()} runs (fedflow's {@code FedFlow.add_group}). */
  public void add(GroupBuilder group) {
    GroupDraft pending = group.pending();
    whileOpen(() -> submitted.addToBatch(pending));
  }

  /** Adds a group in the core model's form to the batch, e.g. each group of a loaded spec. */
  public void add(GroupSpec group) {
    whileOpen(() -> submitted.addToBatch(group));
  }

  /**
   * Runs the added groups one after another, each once the previous one ended, and empties the
   * batch (fedflow's {@code FedFlow.start()}). Every group is checked before the first starts. A
   * group whose tasks failed does not stop the next: tasks that depend on failed ones end as unreachable.
   *
   * @throws IllegalArgumentException when a group breaks a rule; then nothing starts
   */
  public BatchResult start() throws InterruptedException {
    List<GroupSpec> groups = whileOpen(submitted::takeBatch);
    List<GroupResult> results = new ArrayList<>();
    for (GroupSpec g : groups) {
      results.add(submitGroup(g).get());
    }
    return new BatchResult(results);
  }

  /** A dry run of the batch: every task {@link #start()} would run, with its effective requests. */
  public Plan plan() {
    return whileOpen(() -> Plan.of(name(), submitted.resolveBatch()));
  }

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
    return map(Tasks.template(mapIds(options), argv), inputs, options);
  }

  /** The id pattern of a map's tasks, {@code <prefix>-{index}}, the prefix {@code map<N>} unless the options name one. */
  String mapIds(MapOptions options) {
    return (options.idPrefix() != null ? options.idPrefix() : whileOpen(submitted::nextMapPrefix)) + "-{index}";
  }

  /** {@code pool}'s warm engines to map over (ipyparallel's {@code load_balanced_view}), see {@link PoolView}. */
  public PoolView view(Pool pool) {
    return new PoolView(this, pool);
  }

  /**
   * Runs a template once per input; like {@link #map(List, List, MapOptions)}, with the id, the
   * settings (memory, cpus, ...) and the command taken from the template, whose placeholders are
   * filled as there. The ids must differ per input: use {@code {index}} or an input key in the id.
   */
  public MapResults map(TaskTemplate template, List<?> inputs, MapOptions options) {
    ensureOpen();
    List<TaskBuilder> tasks = Sweeps.expand(template, inputs);
    synchronized (lock) {
      submitted.refuseTakenIds(tasks);
    }
    MapResults results = new MapResults(this, inputs, tasks, options);
    maps.add(results);
    results.start();
    if (closed) {
      results.stop("the session was closed");
    }
    return results;
  }

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
    String group = whileOpen(submitted::nextTuneGroup);
    return Sweeps.rank(name(), grid, execute(Groups.builder(group).tasks(trials)), objective);
  }

  /**
   * Interrupts what has not ended, waits for the engine to end, writes the reports, stops the
   * session's threads and releases its folder; see the class comment. Does nothing when already
   * closed.
   *
   * @throws IllegalStateException when called from the engine's thread (a {@code RunListener})
   * @throws UncheckedIOException when the reports cannot be written (everything else is closed first)
   */
  @Override
  public void close() {
    if (session.onEngineThread()) {
      throw new IllegalStateException("close() must not be called from the engine's thread (a RunListener)");
    }
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
    }
    maps.forEach(m -> m.stop("the session was closed"));
    try {
      session.close();
    } finally {
      boolean interrupted = callbacks.close();
      synchronized (lock) {
        finalReport = session.end().map(RunEnd::report).orElse(null);
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The engine stopped on an error: every handle still waiting fails with it, and the session refuses more. */
  private void engineStopped(Throwable t) {
    engineFailure = t;
    registry.failAll(new IllegalStateException("the Berth engine of session " + name() + " stopped: " + t, t));
  }

  /** Runs {@code action} under the session's lock, once {@link #ensureOpen()} allowed it. */
  private <T> T whileOpen(Supplier<T> action) {
    synchronized (lock) {
      ensureOpen();
      return action.get();
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("session " + name() + " is closed; open a new one with Berth.local(...)");
    }
    Throwable failure = engineFailure;
    if (failure != null) {
      throw new IllegalStateException("the Berth engine of session " + name() + " stopped: " + failure, failure);
    }
  }
}
