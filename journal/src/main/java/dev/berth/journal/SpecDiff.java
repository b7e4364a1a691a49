package dev.berth.journal;

import dev.berth.core.model.RunSpec;
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
 * keys. Memory is shown with units, durations compactly; {@code (none)} stands for an absent value.
 */
public final class SpecDiff {

  /** The fields shown as memory sizes and as durations, by path without the [...] selectors. */
  static final Set<String> BYTES = Set.of(
      "groups.tasks.memory", "groups.tasks.gpu-memory", "config.scheduler.default-memory",
      "config.scheduler.default-cuda-memory", "config.remain-limit.memory", "config.remain-limit.cuda-memory");
  static final Set<String> DURATIONS = Set.of(
      "groups.tasks.retry-delay", "groups.tasks.retry-delay-max", "groups.tasks.queue-timeout",
      "groups.tasks.timeout", "config.scheduler.interval", "config.scheduler.put-interval",
      "config.scheduler.available-interval", "config.smtp.min-interval");

  private final List<String> out = new ArrayList<>();

  private SpecDiff() {}

  /** The differences, in a stable order: run fields, config, groups, then tasks; empty when the specs are equal. */
  public static List<String> between(RunSpec stored, RunSpec now) {
    SpecDiff diff = new SpecDiff();
    Fields a = Fields.of(SpecCodec.toJson(stored), "");
    Fields b = Fields.of(SpecCodec.toJson(now), "");
    for (String key : List.of("name", "workdir", "gpus", "groups-in-parallel", "config", "objective", "notify")) {
      diff.value(key, key, a.get(key), b.get(key));
    }
    diff.groups(a.array("groups"), b.array("groups"));
    return List.copyOf(diff.out);
  }

  private void groups(List<Json> stored, List<Json> now) {
    Map<String, Json> before = byKey(stored, "name");
    Map<String, Json> after = byKey(now, "name");
    added("group", before.keySet(), after.keySet());
    order("group order", before.keySet(), after.keySet());
    Map<String, Placed> tasksBefore = tasks(before);
    Map<String, Placed> tasksAfter = tasks(after);
    added("task", tasksBefore.keySet(), tasksAfter.keySet());
    for (Map.Entry<String, Placed> e : tasksAfter.entrySet()) {
      Placed was = tasksBefore.get(e.getKey());
      Placed is = e.getValue();
      if (was == null) {
        continue;
      }
      if (!was.group().equals(is.group())) {
        out.add("task moved: " + e.getKey() + " (group " + was.group() + " -> " + is.group() + ")");
      }
      value("groups[" + is.group() + "].tasks[" + e.getKey() + "]", "groups.tasks", was.task(), is.task());
    }
    for (Map.Entry<String, Json> g : after.entrySet()) {
      Json old = before.get(g.getKey());
      if (old != null) {
        order("groups[" + g.getKey() + "].task order", byKey(tasksOf(old), "id").keySet(),
            byKey(tasksOf(g.getValue()), "id").keySet());
      }
    }
  }

  /** One value: objects field by field, anything else as a whole. */
  private void value(String path, String keys, Json a, Json b) {
    if (a instanceof Json.Obj x && b instanceof Json.Obj y) {
      Set<String> names = new TreeSet<>(x.fields().keySet());
      names.addAll(y.fields().keySet());
      for (String name : names) {
        if (!name.equals("id")) {
          value(path + "." + name, keys + "." + name, x.fields().get(name), y.fields().get(name));
        }
      }
    } else if (!same(a, b)) {
      String shownA = show(keys, a);
      String shownB = show(keys, b);
      if (shownA.equals(shownB)) {
        shownA = show("", a);
        shownB = show("", b);
      }
      out.add(path + ": " + shownA + " -> " + shownB);
    }
  }

  private void added(String what, Set<String> before, Set<String> after) {
    after.stream().filter(k -> !before.contains(k)).forEach(k -> out.add(what + " added: " + k));
    before.stream().filter(k -> !after.contains(k)).forEach(k -> out.add(what + " removed: " + k));
  }

  /** Reports a change in the relative order of the names present on both sides. */
  private void order(String label, Set<String> before, Set<String> after) {
    List<String> a = before.stream().filter(after::contains).toList();
    List<String> b = after.stream().filter(before::contains).toList();
    if (!a.equals(b)) {
      out.add(label + ": " + a + " -> " + b);
    }
  }

  private static boolean same(Json a, Json b) {
    return a != null && b != null && a.toString().equals(b.toString());
  }

  private static String show(String keys, Json v) {
    if (v == null || v instanceof Json.Null) {
      return "(none)";
    }
    if (BYTES.contains(keys) && v instanceof Json.Num n) {
      return ByteSize.format(n.longValue());
    }
    if (DURATIONS.contains(keys) && v instanceof Json.Str s) {
      return DurationText.format(Duration.parse(s.value()));
    }
    if (v instanceof Json.Str s) {
      return s.value().isEmpty() ? "''" : s.value();
    }
    if (v instanceof Json.Arr a) {
      return a.items().stream().map(i -> show("", i)).toList().toString();
    }
    return v.toString();
  }

  private record Placed(String group, Json task) {}

  private static Map<String, Placed> tasks(Map<String, Json> groups) {
    Map<String, Placed> tasks = new LinkedHashMap<>();
    groups.forEach((name, group) -> byKey(tasksOf(group), "id").forEach((id, t) -> tasks.put(id, new Placed(name, t))));
    return tasks;
  }

  private static List<Json> tasksOf(Json group) {
    return ((Json.Arr) ((Json.Obj) group).fields().get("tasks")).items();
  }

  private static Map<String, Json> byKey(List<Json> objects, String key) {
    Map<String, Json> map = new LinkedHashMap<>();
    for (Json o : objects) {
      map.put(((Json.Str) ((Json.Obj) o).fields().get(key)).value(), o);
    }
    return map;
  }
}
