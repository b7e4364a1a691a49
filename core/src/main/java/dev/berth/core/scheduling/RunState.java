package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskHistory;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.Occupancy;
import dev.berth.core.resources.RunOccupancy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The state of a run: every task's history, plus indexes kept in step with it so that a decision
 * pass touches only the tasks that can change. Mutated only through {@link #apply}. Not thread-safe.
 */
public final class RunState implements RunOccupancy {

  /** Ready tasks are tried highest priority first, then in submission order. */
  public static final Comparator<TaskRecord> START_ORDER = (a, b) -> {
    int byPriority = Integer.compare(b.spec().priority(), a.spec().priority());
    return byPriority != 0 ? byPriority : Integer.compare(a.seq(), b.seq());
  };

  /** Submission order; spelt out, as a resume sorts every task into the sets in it. */
  private static final Comparator<TaskRecord> SUBMISSION_ORDER = (a, b) -> Integer.compare(a.seq(), b.seq());

  private RunSpec spec;
  private final List<TaskRecord> tasks = new ArrayList<>();
  /** For lookups only, never walked, so its order never shows: a hash map, as a resume looks up every task. */
  private final Map<TaskId, TaskRecord> byId = new HashMap<>();
  private final NavigableSet<TaskRecord> ready = new TreeSet<>(START_ORDER);
  private final NavigableSet<TaskRecord> queued = new TreeSet<>(SUBMISSION_ORDER);
  private final SortedMap<TaskId, TaskEvent.Launched> running = new TreeMap<>();
  private final SortedMap<TaskId, Occupancy> occupancy = new TreeMap<>();
  private final List<Integer> unfinishedPerGroup = new ArrayList<>();
  private final List<Instant> groupActivatedAt = new ArrayList<>();
  private int unfinished;
  private final Set<TaskRecord> readyNeedingCare = new TreeSet<>(START_ORDER);
  private final NavigableSet<TaskRecord> readyChanging = new TreeSet<>(START_ORDER);
  private Instant startedAt;
  private Instant lastEventTime = Instant.EPOCH;
  private final SortedMap<Integer, Instant> addedAt = new TreeMap<>();
  private final TemplatePeaks templatePeaks = new TemplatePeaks();
  private final SortedMap<Integer, Instant> lastPlacedAt = new TreeMap<>();
  private long gpuPlacements;
  private final EdgeTallies tallies = new EdgeTallies();

  /** A fresh run: every task {@link TaskState#QUEUED}. */
  public RunState(RunSpec spec) {
    this.spec = spec;
    for (GroupSpec g : spec.groups()) {
      index(g);
    }
    track(0);
  }

  /**
   * Appends an event to a task's history and updates the indexes.
   *
   * @throws dev.berth.core.lifecycle.IllegalTransitionException when the move is not legal
   * @throws IllegalArgumentException when the task is unknown
   */
  public void apply(TaskId id, TaskEvent event) {
    TaskRecord r = task(id);
    TaskState before = r.state();
    r.history().append(event);
    templatePeaks.record(r, event);
    lastEventTime = event.at();
    TaskState after = r.state();
    tallies.moved(id, before, after);
    if (before == TaskState.QUEUED) {
      queued.remove(r);
    }
    if (before == TaskState.READY) {
      ready.remove(r);
      readyNeedingCare.remove(r);
      readyChanging.remove(r);
    }
    if (after == TaskState.QUEUED && before != TaskState.QUEUED) {
      queued.add(r); // reopened by a retry
    }
    if (after == TaskState.READY) {
      ready.add(r);
      if (needsCare(r)) {
        readyNeedingCare.add(r);
      }
      if (changesWhileWaiting(r)) {
        readyChanging.add(r);
      }
    }
    if (event instanceof TaskEvent.Launched l) {
      occupancy.put(id, new Occupancy(l.at(), l.placement()));
    } else if (event instanceof TaskEvent.Trained t) {
      Placement host = running.get(id).placement();
      occupancy.put(id, new Occupancy(t.at(), new Placement(t.placement().device(), host.memoryBytes(),
          host.milliCpus(), t.placement().gpuMemoryBytes())));
    } else if (event instanceof TaskEvent.Reported && running.containsKey(id)) {
      occupancy.put(id, new Occupancy(event.at(), running.get(id).placement()));
    }
    if (!after.hasProcess()) {
      occupancy.remove(id);
    }
    if (event instanceof TaskEvent.Launched l) {
      running.put(id, l);
      countPlacement(l.placement(), l.at());
    } else if (event instanceof TaskEvent.Trained t) {
      countPlacement(t.placement(), t.at());
    } else if (!after.hasProcess()) {
      running.remove(id);
    }
    if (before.isTerminal() && !after.isTerminal()) {
      unfinishedPerGroup.set(r.groupIndex(), unfinishedPerGroup.get(r.groupIndex()) + 1);
      unfinished++;
    }
    if (after.isTerminal() && !before.isTerminal()) {
      unfinishedPerGroup.set(r.groupIndex(), unfinishedPerGroup.get(r.groupIndex()) - 1);
      unfinished--;
      activate(activeGroup(), event.at());
    }
  }

  private void countPlacement(Placement p, Instant at) {
    List<Integer> gpus = p.gpuIndices();
    gpus.forEach(i -> lastPlacedAt.put(i, at));
    if (!gpus.isEmpty()) {
      gpuPlacements++;
    }
  }

  /**
   * Adds a group after the run started (the session API's submissions). Its tasks are validated
   * with the run's, so a dependency on an unknown task or a cycle is refused.
   *
   * @throws IllegalArgumentException when the group's name or a task id is taken, or a dependency is invalid
   */
  public void add(GroupSpec group) {
    add(group, lastEventTime);
  }

  /**
   * Adds a group after the run started, at {@code at}: in parallel mode its tasks' queue-timeouts
   * count from then, not from the start of the run. When the run has a group of that name already,
   * that group grows by these tasks (the session API's tasks submitted one by one share a group).
   *
   * @throws IllegalArgumentException when a task id is taken, or a dependency is invalid
   */
  public void add(GroupSpec group, Instant at) {
    List<GroupSpec> groups = new ArrayList<>(spec.groups());
    int existing = groups.stream().map(GroupSpec::name).toList().indexOf(group.name());
    if (existing >= 0) {
      // A group of that name grows: the session API's tasks submitted one by one share one group.
      List<TaskSpec> merged = new ArrayList<>(groups.get(existing).tasks());
      merged.addAll(group.tasks());
      groups.set(existing, new GroupSpec(group.name(), merged));
    } else {
      groups.add(group);
    }
    RunSpec grown = new RunSpec(spec.name(), spec.workdir(), spec.config(), groups, spec.groupsInParallel(),
        spec.gpus(), spec.reporting(), spec.adapters());
    spec = grown;
    int first = tasks.size();
    if (existing >= 0) {
      index(existing, group.tasks());
    } else {
      index(group);
    }
    for (int seq = first; seq < tasks.size(); seq++) {
      addedAt.put(seq, at);
    }
    track(first);
    if (startedAt != null) {
      activate(activeGroup(), at);
    }
  }

  private void index(GroupSpec group) {
    int g = unfinishedPerGroup.size();
    unfinishedPerGroup.add(0);
    groupActivatedAt.add(null);
    index(g, group.tasks());
  }

  private void index(int g, List<TaskSpec> added) {
    for (TaskSpec t : added) {
      TaskRecord r = new TaskRecord(t, new TaskHistory(t.id()), tasks.size(), g);
      tasks.add(r);
      byId.put(t.id(), r);
      templatePeaks.member(t);
      queued.add(r);
      unfinishedPerGroup.set(g, unfinishedPerGroup.get(g) + 1);
      unfinished++;
    }
  }

  /** Counts, for the edges of the tasks from {@code seq} on, their parents' endings; every parent is indexed. */
  private void track(int seq) {
    for (int i = seq; i < tasks.size(); i++) {
      tallies.track(tasks.get(i).spec(), id -> task(id).state());
    }
  }

  /**
   * Where an edge of a task of this run stands, from the counts kept of its parents' endings; an edge
   * that can never be met is evaluated in full, for the reason it gives, and so is one of no task here.
   */
  public DependencyCheck.Evaluation evaluate(Dependency edge) {
    Optional<DependencyCheck.Status> status = tallies.status(edge, id -> task(id).state());
    if (status.isEmpty() || status.get() == DependencyCheck.Status.IMPOSSIBLE) {
      return DependencyCheck.evaluate(edge, id -> task(id).state());
    }
    return new DependencyCheck.Evaluation(status.get(), Optional.empty(), "");
  }

  private void activate(int group, Instant at) {
    if (group < groupActivatedAt.size() && groupActivatedAt.get(group) == null) {
      groupActivatedAt.set(group, at);
    }
  }

  /** Records when the run started: the moment the first group (or, in parallel mode, every task) became pending. */
  public void started(Instant at) {
    if (startedAt == null) {
      startedAt = at;
      activate(activeGroup(), at);
    }
  }

  /** When the run started, if {@link #started} was called. */
  public Optional<Instant> startedAt() {
    return Optional.ofNullable(startedAt);
  }

  /**
   * Since when a queued task has been waiting for its dependencies: when its group's turn came, or
   * when the run started if groups run in parallel; for a task a retry reopened, since then at the
   * earliest. Empty while its group's turn has not come.
   */
  public Optional<Instant> pendingSince(TaskRecord r) {
    Optional<Instant> since = spec.groupsInParallel()
        ? Optional.ofNullable(addedAt.getOrDefault(r.seq(), startedAt))
        : Optional.ofNullable(groupActivatedAt.get(r.groupIndex()));
    List<TaskEvent> events = r.history().events();
    if (since.isPresent() && !events.isEmpty() && events.get(events.size() - 1) instanceof TaskEvent.Reopened o
        && o.at().isAfter(since.get())) {
      return Optional.of(o.at());
    }
    return since;
  }

  @Override
  public SortedMap<TaskId, Occupancy> occupancy() {
    return Collections.unmodifiableSortedMap(occupancy);
  }

  @Override
  public boolean wantsWholeDevices(TaskId task) {
    return task(task).spec().gpu().wholeDevices() > 0;
  }

  /** The measured peaks and out-of-memory endings of each template, folded from the events. */
  TemplatePeaks templatePeaks() {
    return templatePeaks;
  }

  @Override
  public SortedMap<Integer, Instant> lastPlacedAt() {
    return Collections.unmodifiableSortedMap(lastPlacedAt);
  }

  @Override
  public long gpuPlacements() {
    return gpuPlacements;
  }

  /**
   * Whether a ready task must be looked at in every pass even when the host has no core left: it
   * asks for no cores, it has a queue-timeout that may fall due, or it waits for a retry delay.
   */
  public static boolean needsCare(TaskRecord r) {
    return r.spec().resources().milliCpus() == 0 || r.spec().find(TaskKeys.QUEUE_TIMEOUT).isPresent()
        || r.history().attemptCount() > 0;
  }

  /**
   * Whether what a pass decides for a ready task that cannot start can differ from one pass to the
   * next: it has a queue-timeout that may fall due, or an earlier attempt (a retry delay that ends, a
   * request its out-of-memory endings outgrew).
   */
  public static boolean changesWhileWaiting(TaskRecord r) {
    return r.spec().find(TaskKeys.QUEUE_TIMEOUT).isPresent() || r.history().attemptCount() > 0;
  }

  /** The ready tasks that {@link #changesWhileWaiting change while waiting}, in start order. */
  public NavigableSet<TaskRecord> readyChangingWhileWaiting() {
    return Collections.unmodifiableNavigableSet(readyChanging);
  }

  /** How many ready tasks {@link #needsCare need care}. */
  public int readyNeedingCare() {
    return readyNeedingCare.size();
  }

  /** Tasks still waiting for their group or their dependencies, in submission order. */
  public NavigableSet<TaskRecord> queued() {
    return Collections.unmodifiableNavigableSet(queued);
  }

  /** The run's spec. */
  public RunSpec spec() {
    return spec;
  }

  /** The task with this id. */
  public TaskRecord task(TaskId id) {
    TaskRecord r = byId.get(id);
    if (r == null) {
      throw new IllegalArgumentException("unknown task " + id);
    }
    return r;
  }

  /** Every task in submission order. */
  public List<TaskRecord> tasks() {
    return Collections.unmodifiableList(tasks);
  }

  /** Tasks ready to start, in start order. */
  public NavigableSet<TaskRecord> ready() {
    return Collections.unmodifiableNavigableSet(ready);
  }

  /** The current launch of every task that has a process, by task id. */
  public SortedMap<TaskId, TaskEvent.Launched> running() {
    return Collections.unmodifiableSortedMap(running);
  }

  /** Index of the first group that still has unfinished tasks, or the group count when all are done. */
  public int activeGroup() {
    for (int g = 0; g < unfinishedPerGroup.size(); g++) {
      if (unfinishedPerGroup.get(g) > 0) {
        return g;
      }
    }
    return unfinishedPerGroup.size();
  }

  /** Whether every task is in a terminal state. */
  public boolean isFinished() {
    return unfinished == 0;
  }
}
