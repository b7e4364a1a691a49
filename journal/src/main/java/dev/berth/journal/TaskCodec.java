package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.Settings;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.InvalidValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link TaskSpec} to and from JSON under the spec file's key names: the task's id, matrix values,
 * template and dependencies, then every key it carries ({@link TaskKeys#carried()}) as
 * {@link TaskKey#stored} gives it and the key's own parser reads it back: memory in bytes, {@code cpus}
 * an exact decimal with at most three places, durations ISO-8601, none as {@code null}. The group is
 * not written: it is the enclosing group's name.
 *
 * <p>A Berth before the {@code pool} key sent a call or Java task to its pool through two variables in
 * its {@code env}, {@value #OLD_POOL_VARIABLE} (the name) and {@value #OLD_SETTINGS_VARIABLE} (the
 * settings as {@link PoolSpec#text()} writes them); read, they become the task's pool, so that the
 * task equals the one its spec gives today.
 */
final class TaskCodec {

  /** Each carried key's initial value as stored, by slot: a stored value equal to it is the initial value. */
  private static final JsonNode[] INITIAL = TaskKeys.carried().stream().map(TaskCodec::initialNode)
      .toArray(JsonNode[]::new);

  /** The variable an older Berth named a task's pool with. */
  private static final String OLD_POOL_VARIABLE = "BERTH_POOL";

  /** The variable an older Berth held a task's pool settings in. */
  private static final String OLD_SETTINGS_VARIABLE = "BERTH_POOL_SETTINGS";

  private TaskCodec() {}

  static ObjectNode toJson(TaskSpec t) {
    ObjectNode f = CanonicalJson.object();
    f.put("id", t.id().value());
    f.set("params", CanonicalJson.strings(t.params()));
    f.set("after", t.after().map(TaskCodec::dependency).orElse(null));
    f.set("follow", t.follow().map(TaskCodec::dependency).orElse(null));
    if (!t.template().equals(t.id().value())) {
      f.put("template", t.template());
    }
    for (TaskKey<?> key : TaskKeys.carried()) {
      put(f, key, t);
    }
    return f;
  }

  /**
   * The task written by {@link #toJson}. Values read through {@link Fields#same} are handed on from
   * the task before when {@code f} reads {@link Fields#after} it and the node is the same.
   */
  static TaskSpec fromJson(Fields f, String group) {
    TaskId id = TaskId.of(f.string("id"));
    Settings.Builder settings = TaskKeys.initialSettings().toBuilder();
    for (TaskKey<?> key : TaskKeys.carried()) {
      read(f, key, settings);
    }
    OldPool old = f.same(TaskKeys.ENV.key(), "pool from env", k -> OldPool.of(f, settings.get(TaskKeys.ENV)));
    if (old != null && settings.get(TaskKeys.POOL) == null) {
      settings.set(TaskKeys.ENV, old.env()).set(TaskKeys.POOL, old.pool());
    }
    Optional<Dependency> after = f.same("after", k -> f.optional(k, d -> dependency(f.object(d))));
    Optional<Dependency> follow = f.same("follow", k -> f.optional(k, d -> dependency(f.object(d))));
    TaskSpec task = new TaskSpec(id, group,
        f.ifGiven("template", f::string).orElse(id.value()), // a Berth before templates wrote none
        f.same("params", f::stringMap), after, follow, settings.build());
    f.done();
    return task;
  }

  /**
   * The pool an older Berth wrote into a task's env, and the env without it.
   *
   * @param env the env without the two variables
   * @param pool the pool they name
   */
  private record OldPool(Map<String, String> env, PoolSpec pool) {

    /** The pool {@code env} holds, or null when it holds none; the tasks of a sweep share one. */
    static OldPool of(Fields f, Map<String, String> env) {
      String name = env.get(OLD_POOL_VARIABLE);
      String text = env.get(OLD_SETTINGS_VARIABLE);
      if (name == null || text == null) {
        return null;
      }
      Map<String, String> rest = new TreeMap<>(env);
      rest.remove(OLD_POOL_VARIABLE);
      rest.remove(OLD_SETTINGS_VARIABLE);
      try {
        return new OldPool(TaskKeys.ENV.canonical(rest), PoolSpec.parse(name, text));
      } catch (IllegalArgumentException e) {
        throw f.invalid(TaskKeys.ENV.key() + "." + OLD_SETTINGS_VARIABLE, e.getMessage());
      }
    }
  }

  private static <T> void put(ObjectNode f, TaskKey<T> key, TaskSpec t) {
    T value = t.get(key);
    if (value != null || !key.carried().storedWhenSet()) {
      f.set(key.key(), StoredValues.json(key.stored(value)));
    }
  }

  private static <T> void read(Fields f, TaskKey<T> key, Settings.Builder settings) {
    if (!f.has(key.key()) && key.carried().storedWhenSet()) {
      return; // a Berth that wrote none left it to the run's config
    }
    settings.set(key, f.same(key.key(), k -> value(f, key)));
  }

  /** The stored value of {@code key}, read with the key's own parser. */
  private static <T> T value(Fields f, TaskKey<T> key) {
    JsonNode node = f.get(key.key());
    if (node.equals(INITIAL[key.slot()])) {
      return key.initial();
    }
    if (node.isNull()) {
      throw f.wrong(key.key(), key.setting().type());
    }
    try {
      return key.canonical(key.parse(StoredValues.plain(node)));
    } catch (InvalidValue e) {
      throw f.invalid(key.key(), e.rule());
    }
  }

  private static JsonNode initialNode(TaskKey<?> key) {
    return StoredValues.json(stored(key));
  }

  private static <T> Object stored(TaskKey<T> key) {
    return key.stored(key.initial());
  }

  private static ObjectNode dependency(Dependency d) {
    ObjectNode f = CanonicalJson.object();
    f.set("tasks", CanonicalJson.strings(d.tasks().stream().map(TaskId::value).toList()));
    f.put("all", d.all());
    f.put("success", d.success());
    f.put("failure", d.failure());
    return f;
  }

  private static Dependency dependency(Fields f) {
    List<TaskId> tasks = f.strings("tasks").stream().map(TaskId::of).toList();
    Dependency d = new Dependency(tasks, f.bool("all"), f.bool("success"), f.bool("failure"));
    f.done();
    return d;
  }
}
