package dev.berth.client;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.RunState;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.session.LocalSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a {@link Berth} session was given, in order: its groups' names and task ids, a handle per
 * task, and the groups resumed from the journal that the program has not submitted again yet.
 * Checks each new group against all of it, then hands it to the session's engine. Not thread-safe:
 * {@link Berth} calls it under its lock.
 */
final class Submissions {

  private final LocalSession session;
  private final Registry registry;
  private final Berth berth;
  private final RunLayout layout;
  private final SchedulerConfig config;
  private final Map<String, List<String>> known = new LinkedHashMap<>();
  /** Every task's handle, resumed or submitted, in submission order. */
  private final Map<String, TaskHandle> handles = new LinkedHashMap<>();
  /** Groups resumed from the journal that this process has not submitted again yet. */
  private final Map<String, GroupSpec> unclaimed = new LinkedHashMap<>();
  private final Map<String, GroupHandle> unclaimedHandles = new LinkedHashMap<>();
  /** Groups added for a batch: {@link GroupDraft} or {@link GroupSpec}. */
  private final List<Object> batch = new ArrayList<>();
  private int mapCount;
  private int tuneCount;

  Submissions(LocalSession session, SchedulerConfig config, Registry registry, Berth berth) {
    this.session = session;
    this.config = config;
    this.registry = registry;
    this.berth = berth;
    this.layout = session.layout();
  }

  /**
   * Makes a handle for every task the journal had: tasks that ended are complete handles, the
   * others are fed by the engine like new ones. Before the engine starts, on the opening thread.
   */
  void restore() {
    RunState state = session.state();
    for (GroupSpec g : state.spec().groups()) {
      List<TaskHandle> group = new ArrayList<>();
      for (TaskSpec t : g.tasks()) {
        TaskHandle h = new TaskHandle(t.id().value(), g.name(), layout.taskDir(t), berth);
        registry.restore(h, state.task(t.id()));
        handles.put(h.id(), h);
        group.add(h);
      }
      known.put(g.name(), taskIds(g));
      unclaimed.put(g.name(), g);
      unclaimedHandles.put(g.name(), new GroupHandle(g.name(), group));
    }
  }

  Optional<TaskHandle> handle(String taskId) {
    return Optional.ofNullable(handles.get(taskId));
  }

  List<TaskHandle> handles() {
    return List.copyOf(handles.values());
  }

  /**
   * Registers and submits a resolved group. A group resumed from the journal and submitted again
   * unchanged is not added twice: its handles are returned.
   */
  GroupHandle register(GroupSpec group) {
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
    List<TaskHandle> added = track(group);
    known.put(group.name(), taskIds(group));
    submitToSession(group, added);
    return new GroupHandle(group.name(), added);
  }

  /** A handle for each task of {@code group}, tracked, each task's folder cleared of an earlier session's files. */
  private List<TaskHandle> track(GroupSpec group) {
    List<TaskHandle> added = new ArrayList<>();
    for (TaskSpec t : group.tasks()) {
      Path dir = layout.taskDir(t);
      moveAside(dir);
      added.add(new TaskHandle(t.id().value(), group.name(), dir, berth));
    }
    added.forEach(registry::track);
    added.forEach(h -> handles.put(h.id(), h));
    return added;
  }

  private void submitToSession(GroupSpec group, List<TaskHandle> added) {
    session.submit(group).whenComplete((ok, refused) -> {
      if (refused != null) {
        registry.refused(added, refused);
      }
    });
  }

  /**
   * Registers and submits tasks that join the session's group {@code joining.name()}, which grows
   * with each submission ({@link Berth#submit}). A task resumed from the journal in that group and
   * submitted again unchanged is not added twice: its handle is returned.
   */
  List<TaskHandle> registerJoining(GroupSpec joining) {
    GroupSpec stored = unclaimed.get(joining.name());
    List<TaskHandle> claimed = new ArrayList<>();
    List<TaskSpec> fresh = new ArrayList<>();
    for (TaskSpec t : joining.tasks()) {
      Optional<TaskSpec> before = stored == null ? Optional.empty()
          : stored.tasks().stream().filter(s -> s.id().equals(t.id())).findFirst();
      if (before.isEmpty()) {
        fresh.add(t);
      } else if (!before.get().equals(t)) {
        throw new IllegalArgumentException("task '" + t.id() + "' was resumed from the session's journal with other"
            + " settings; submit it unchanged to get its handle, or give it another id");
      } else {
        claimed.add(handles.get(t.id().value()));
        stored = unclaim(stored, t);
      }
    }
    if (fresh.isEmpty()) {
      return claimed;
    }
    GroupSpec added = new GroupSpec(joining.name(), fresh);
    Map<String, List<String>> others = new LinkedHashMap<>(known);
    List<String> earlier = others.remove(joining.name());
    check(added, withIds(others, earlier));
    List<TaskHandle> handlesAdded = track(added);
    List<String> ids = new ArrayList<>(earlier == null ? List.of() : earlier);
    ids.addAll(taskIds(added));
    known.put(joining.name(), List.copyOf(ids));
    submitToSession(added, handlesAdded);
    claimed.addAll(handlesAdded);
    return claimed;
  }

  /** The resumed group without {@code task}, which the program submitted again; gone once empty. */
  private GroupSpec unclaim(GroupSpec stored, TaskSpec task) {
    List<TaskSpec> rest = new ArrayList<>(stored.tasks());
    rest.removeIf(t -> t.id().equals(task.id()));
    if (rest.isEmpty()) {
      unclaimed.remove(stored.name());
      unclaimedHandles.remove(stored.name());
      return null;
    }
    GroupSpec left = new GroupSpec(stored.name(), rest);
    unclaimed.put(stored.name(), left);
    return left;
  }

  /** {@code others} plus, under a name no group can have, the ids a joined group holds already. */
  private static Map<String, List<String>> withIds(Map<String, List<String>> others, List<String> earlier) {
    Map<String, List<String>> all = new LinkedHashMap<>(others);
    if (earlier != null) {
      all.put(" joined", earlier);
    }
    return all;
  }

  /** Resolves tasks that join a session group (see {@link #registerJoining}) against what is visible now. */
  GroupSpec resolveJoining(GroupDraft joining) {
    refuseTakenIds(joining.tasks());
    Map<String, List<String>> others = new LinkedHashMap<>(visible());
    List<String> earlier = others.remove(joining.name());
    return resolve(joining, withIds(others, earlier));
  }

  /** Resolves one group against what is visible now, with the session's configuration. */
  GroupSpec resolve(GroupDraft group) {
    return resolve(group, visible());
  }

  /** Adds a pending group or a core group to the batch that {@link #takeBatch()} resolves. */
  boolean addToBatch(Object group) {
    return batch.add(group);
  }

  /** The batch resolved, emptying it. */
  List<GroupSpec> takeBatch() {
    List<GroupSpec> groups = resolveBatch();
    batch.clear();
    return groups;
  }

  /** The batch's groups in order, resolved as if each were submitted, without submitting any. */
  List<GroupSpec> resolveBatch() {
    Map<String, List<String>> simulated = new LinkedHashMap<>(visible());
    List<GroupSpec> out = new ArrayList<>();
    for (Object item : batch) {
      GroupSpec spec = item instanceof GroupDraft p ? resolve(p, simulated) : check((GroupSpec) item, simulated);
      simulated.put(spec.name(), taskIds(spec));
      out.add(spec);
    }
    return out;
  }

  private GroupSpec resolve(GroupDraft group, Map<String, List<String>> known) {
    return GroupDraft.resolve(List.of(group), known, config, "session", false).get(0);
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
    unclaimed.forEach((name, group) -> {
      // Only the tasks not submitted again are hidden: a joined group is claimed task by task.
      List<String> hidden = taskIds(group);
      List<String> shown = visible.getOrDefault(name, List.of()).stream().filter(id -> !hidden.contains(id)).toList();
      if (shown.isEmpty()) {
        visible.remove(name);
      } else {
        visible.put(name, shown);
      }
    });
    return visible;
  }

  /** A free id prefix for a map: {@code map1}, {@code map2}, ... */
  String nextMapPrefix() {
    String prefix;
    do {
      prefix = "map" + (++mapCount);
    } while (idTakenByNew(prefix + "-0"));
    return prefix;
  }

  /** A free group name for a grid search: {@code tune1}, {@code tune2}, ... */
  String nextTuneGroup() {
    String group;
    do {
      group = "tune" + (++tuneCount);
    } while (groupTakenByNew(group));
    return group;
  }

  /** Refuses tasks whose id is taken already, before any of them is submitted. */
  void refuseTakenIds(List<TaskBuilder> tasks) {
    for (TaskBuilder t : tasks) {
      if (idTakenByNew(t.id())) {
        throw new IllegalArgumentException("task id '" + t.id() + "' is already used in this session; task ids must be unique");
      }
    }
  }

  /** Whether a task id is taken by a task this program submitted (resumed tasks not submitted again aside). */
  private boolean idTakenByNew(String id) {
    return known.values().stream().anyMatch(ids -> ids.contains(id)) && !resumedTask(id);
  }

  /** Whether a group name is taken by a group this program submitted (resumed groups not submitted again aside). */
  private boolean groupTakenByNew(String name) {
    return known.containsKey(name) && !unclaimed.containsKey(name);
  }

  /** Whether a task of a resumed group not submitted again has this id. */
  private boolean resumedTask(String id) {
    return unclaimed.values().stream().anyMatch(g -> g.tasks().stream().anyMatch(t -> t.id().value().equals(id)));
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
    Set<String> ids = new HashSet<>();
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
   * A task folder left by an earlier session of the same name would lend its files to the new
   * task: its {@code result.json}, {@code items.json} and logs are renamed to {@code *.previous}.
   */
  private static void moveAside(Path taskDir) {
    List<String> files = new java.util.ArrayList<>(List.of("result.json", "items.json", "stdout.log", "stderr.log"));
    try (java.util.stream.Stream<Path> logs = Files.list(taskDir)) {
      logs.map(f -> f.getFileName().toString()).filter(n -> n.matches("attempt-[0-9]+\\.std(out|err)\\.log"))
          .sorted().forEach(files::add);
    } catch (IOException e) {
      // no folder yet: nothing to move aside
    }
    for (String file : files) {
      Path f = taskDir.resolve(file);
      if (Files.exists(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        try {
          Files.move(f, taskDir.resolve(file + ".previous"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
          throw new UncheckedIOException("cannot move the earlier " + f + " aside", e);
        }
      }
    }
  }
}
