package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.Setting;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The differences between the spec a run started with and the spec given now, for people, one line
 * each, e.g.:
 *
 * <pre>
 * config.scheduler.max-process: 4 -> 8
 * group added: eval
 * task added: eval
 * task removed: train-0.01-2
 * task moved: prep (group a -> b)
 * groups[train].tasks[train-0.1-1].memory: 1 GiB -> 2 GiB
 * groups[train].tasks[train-0.1-1].env.SEED: (none) -> 3
 * groups[train].task order: [a, b] -> [b, a]
 * </pre>
 *
 * Paths and names are those of the canonical JSON ({@link SpecCodec}), which are the spec file's
 * keys. The values of keys whose type is a memory size are shown with units, durations compactly (the
 * key tables say which); {@code (none)} stands for an absent value.
 * A task's template is not compared: it follows from how its id was written, which the ids show, and
 * a journal written before templates has none.
 */
public final class SpecDiff {

  /** What one difference is about, for {@link SpecChanges} to summarise. */
  enum Kind { RUN, GROUP_ADDED, GROUP_REMOVED, ORDER, TASK_ADDED, TASK_REMOVED, TASK_MOVED, TASK_CHANGED }

  /**
   * One difference.
   *
   * @param kind what it is about
   * @param group the task's group (in the new spec, for a task that is there), or null
   * @param subject the task's or group's name, or null for the run's own values and orders
   * @param field for a changed task, the path of the field that changed within the task ({@code env.SEED}), else null
   * @param detail for a changed task, the field's path and values ({@code env.SEED: (none) -> 3}), else null
   * @param line the line {@link #between} shows for it
   */
  record Difference(Kind kind, String group, String subject, String field, String detail, String line) {}

  private final List<Difference> out = new ArrayList<>();
  private final Set<String> bytes;
  private final Set<String> durations;

  private SpecDiff(List<SettingsTable<?, ?>> adapters) {
    this.bytes = paths(Setting.MEMORY_SIZE, adapters);
    this.durations = paths(Setting.DURATION, adapters);
  }

  /**
   * The paths, without the [...] selectors, of the fields whose key has {@code type}: a task's carried
   * keys, the scheduling settings and every adapter's.
   */
  static Set<String> paths(String type, List<SettingsTable<?, ?>> adapters) {
    Set<String> paths = new TreeSet<>();
    TaskKeys.carried().stream().filter(k -> k.setting().type().equals(type))
        .forEach(k -> paths.add("groups.tasks." + k.key()));
    List<SettingsTable<?, ?>> tables = new ArrayList<>(adapters);
    tables.add(0, SchedulerKeys.TABLE);
    for (SettingsTable<?, ?> table : tables) {
      table.keys().stream().filter(k -> k.type().equals(type))
          .forEach(k -> paths.add((table.topLevel() ? "" : "config.") + k.key()));
    }
    return paths;
  }

  /** {@link #between(RunSpec, RunSpec, List)} of runs with no adapter settings. */
  public static List<String> between(RunSpec stored, RunSpec now) {
    return between(stored, now, List.of());
  }

  /**
   * The differences, in a stable order: run fields, config, groups, then tasks; empty when the specs are equal.
   *
   * @param adapters the tables of every adapter whose settings the runs may carry
   */
  public static List<String> between(RunSpec stored, RunSpec now, List<SettingsTable<?, ?>> adapters) {
    return differences(stored, now, adapters).stream().map(Difference::line).toList();
  }

  /**
   * Defaults that changed since an earlier Berth wrote its journals, each with the default it had
   * then. A journal stores every setting's value, so a run started before the change cannot tell its
   * old default from a choice: where it holds the old default and the spec given has the new one, the
   * spec is the one it started with, not an edit (what the run goes on with is a scheduling
   * preference either way).
   */
  private static final Map<String, String> FORMER_DEFAULTS =
      Map.of("scheduler.placement", "best-fit", "slurm.poll-max", "PT5S");

  /** The differences of {@link #between}, each with what it is about. */
  static List<Difference> differences(RunSpec stored, RunSpec now, List<SettingsTable<?, ?>> adapters) {
    SpecDiff diff = new SpecDiff(adapters);
    JsonNode a = SpecCodec.toJson(stored, adapters);
    JsonNode b = SpecCodec.toJson(now, adapters);
    JsonNode defaults = SpecCodec.toJson(new RunSpec("defaults", "w", SchedulerConfig.DEFAULTS, List.of()), adapters)
        .path("config");
    FORMER_DEFAULTS.forEach((key, former) -> {
      String[] path = key.split("\\.", 2);
      JsonNode was = a.path("config").path(path[0]).path(path[1]);
      JsonNode is = b.path("config").path(path[0]).path(path[1]);
      if (was.asText().equals(former) && !is.isMissingNode() && is.equals(defaults.path(path[0]).path(path[1]))) {
        ((ObjectNode) a.path("config").path(path[0])).set(path[1], is);
      }
    });
    for (String key : List.of("name", "workdir", "gpus", "groups-in-parallel", "config", "objective", "notify")) {
      diff.value(null, key, key, a.get(key), b.get(key));
    }
    diff.groups(items(a.get("groups")), items(b.get("groups")));
    return List.copyOf(diff.out);
  }

  private void groups(List<JsonNode> stored, List<JsonNode> now) {
    Map<String, JsonNode> before = byKey(stored, "name");
    Map<String, JsonNode> after = byKey(now, "name");
    after.keySet().stream().filter(k -> !before.containsKey(k))
        .forEach(k -> out.add(new Difference(Kind.GROUP_ADDED, k, k, null, null, "group added: " + k)));
    before.keySet().stream().filter(k -> !after.containsKey(k))
        .forEach(k -> out.add(new Difference(Kind.GROUP_REMOVED, k, k, null, null, "group removed: " + k)));
    order(null, "group order", before.keySet(), after.keySet());
    Map<String, Placed> tasksBefore = tasks(before);
    Map<String, Placed> tasksAfter = tasks(after);
    tasksAfter.forEach((id, t) -> {
      if (!tasksBefore.containsKey(id)) {
        out.add(new Difference(Kind.TASK_ADDED, t.group(), id, null, null, "task added: " + id));
      }
    });
    tasksBefore.forEach((id, t) -> {
      if (!tasksAfter.containsKey(id)) {
        out.add(new Difference(Kind.TASK_REMOVED, t.group(), id, null, null, "task removed: " + id));
      }
    });
    for (Map.Entry<String, Placed> e : tasksAfter.entrySet()) {
      Placed was = tasksBefore.get(e.getKey());
      Placed is = e.getValue();
      if (was == null) {
        continue;
      }
      if (!was.group().equals(is.group())) {
        out.add(new Difference(Kind.TASK_MOVED, is.group(), e.getKey(), "group", "group: " + was.group() + " -> "
            + is.group(), "task moved: " + e.getKey() + " (group " + was.group() + " -> " + is.group() + ")"));
      }
      value(new Placed(is.group(), null, e.getKey()), "groups[" + is.group() + "].tasks[" + e.getKey() + "]",
          "groups.tasks", was.task(), is.task());
    }
    for (Map.Entry<String, JsonNode> g : after.entrySet()) {
      JsonNode old = before.get(g.getKey());
      if (old != null) {
        order(g.getKey(), "groups[" + g.getKey() + "].task order", byKey(tasksOf(old), "id").keySet(),
            byKey(tasksOf(g.getValue()), "id").keySet());
      }
    }
  }

  /**
   * One value: objects field by field, anything else as a whole.
   *
   * @param task the task whose value it is, or null for the run's own
   */
  private void value(Placed task, String path, String keys, JsonNode a, JsonNode b) {
    if (a != null && a.isObject() && b != null && b.isObject()) {
      Set<String> names = new TreeSet<>();
      a.fieldNames().forEachRemaining(names::add);
      b.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        if (!name.equals("id") && !name.equals("template")) {
          value(task, path + "." + name, keys + "." + name, a.get(name), b.get(name));
        }
      }
    } else if (!same(a, b)) {
      String shownA = show(keys, a);
      String shownB = show(keys, b);
      if (shownA.equals(shownB)) {
        shownA = show("", a);
        shownB = show("", b);
      }
      String line = path + ": " + shownA + " -> " + shownB;
      if (task == null) {
        out.add(new Difference(Kind.RUN, null, null, null, null, line));
      } else {
        String field = path.substring(path.indexOf("]", path.indexOf("].tasks[") + 8) + 2);
        out.add(new Difference(Kind.TASK_CHANGED, task.group(), task.id(), field,
            field + ": " + shownA + " -> " + shownB, line));
      }
    }
  }

  /**
   * Reports a change in the relative order of the names present on both sides.
   *
   * @param group the group whose tasks these are, or null for the groups
   */
  private void order(String group, String label, Set<String> before, Set<String> after) {
    List<String> a = before.stream().filter(after::contains).toList();
    List<String> b = after.stream().filter(before::contains).toList();
    if (!a.equals(b)) {
      out.add(new Difference(Kind.ORDER, group, null, null, null, label + ": " + a + " -> " + b));
    }
  }

  private static boolean same(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    return CanonicalJson.write(a).equals(CanonicalJson.write(b));
  }

  private String show(String keys, JsonNode v) {
    if (v == null || v.isNull()) {
      return "(none)";
    }
    if (bytes.contains(keys) && v.isIntegralNumber()) {
      return ByteSize.format(v.longValue());
    }
    if (durations.contains(keys) && v.isTextual()) {
      return DurationText.format(Duration.parse(v.textValue()));
    }
    if (v.isTextual()) {
      return v.textValue().isEmpty() ? "''" : v.textValue();
    }
    if (v.isArray()) {
      List<String> items = new ArrayList<>();
      v.forEach(i -> items.add(show("", i)));
      return items.toString();
    }
    return CanonicalJson.write(v);
  }

  private record Placed(String group, JsonNode task, String id) {}

  private static Map<String, Placed> tasks(Map<String, JsonNode> groups) {
    Map<String, Placed> tasks = new LinkedHashMap<>();
    groups.forEach((name, group) ->
        byKey(tasksOf(group), "id").forEach((id, t) -> tasks.put(id, new Placed(name, t, id))));
    return tasks;
  }

  private static List<JsonNode> tasksOf(JsonNode group) {
    return items(group.get("tasks"));
  }

  private static List<JsonNode> items(JsonNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    return items;
  }

  private static Map<String, JsonNode> byKey(List<JsonNode> objects, String key) {
    Map<String, JsonNode> map = new LinkedHashMap<>();
    for (JsonNode o : objects) {
      map.put(o.get(key).textValue(), o);
    }
    return map;
  }
}
