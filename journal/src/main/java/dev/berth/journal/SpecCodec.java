package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link RunSpec} to and from canonical JSON, so that a resumed run can be rebuilt from its journal
 * alone. Every field of every record of the model round-trips exactly, and so do the adapters'
 * settings the run carries, through the tables of the adapters given (see {@link SettingsCodec}),
 * except secrets, which are never written; equal specs give equal text (keys sorted, no
 * whitespace), so the text's SHA-256 identifies a spec. Keys follow the spec file:
 *
 * <pre>
 * {"config":{"remain-limit":{...},"scheduler":{"max-process":20,...},"smtp":{...},"utilization-limit":{...}},
 *  "gpus":"auto","groups":[{"name":"train","tasks":[{"id":"train-0.1-1","memory":1073741824,...}]}],
 *  "groups-in-parallel":false,"name":"quickstart","notify":{"on":[],"webhook":null},
 *  "objective":{"goal":"max","key":null},"workdir":"berth-out/quickstart"}
 * </pre>
 *
 * <p>{@link #encode} writes each group's tasks as {@code task-changes} (see {@link TaskChanges}): a
 * sweep's tasks differ in a few fields, so each is written as its changes from the one before, and
 * a 100,000-task matrix takes megabytes, not the tens of megabytes of every task written whole.
 * {@link #decode} reads both forms: journals of schema version 1 hold {@code tasks}.
 */
public final class SpecCodec {

  private SpecCodec() {}

  /** The spec's canonical JSON text, for a run with no adapter settings. */
  public static String encode(RunSpec spec) {
    return encode(spec, List.of());
  }

  /**
   * The spec's canonical JSON text.
   *
   * @param adapters the tables of every adapter whose settings a run may carry; each is written,
   *     at its defaults when the run carries none
   * @throws IllegalArgumentException when the run carries settings none of {@code adapters} reads
   */
  public static String encode(RunSpec spec, List<SettingsTable<?, ?>> adapters) {
    return CanonicalJson.write(toJson(spec, adapters, true));
  }

  /** The spec written by {@link #encode(RunSpec)}. */
  public static RunSpec decode(String json) {
    return decode(json, List.of());
  }

  /**
   * The spec written by {@link #encode(RunSpec, List)}, validated by the model's own constructors
   * and the adapters' tables.
   *
   * @throws IllegalArgumentException naming the field when the text is not such a spec
   */
  public static RunSpec decode(String json, List<SettingsTable<?, ?>> adapters) {
    JsonNode root = CanonicalJson.parse(json);
    Fields f = Fields.of(root, "");
    List<GroupSpec> groups = new ArrayList<>();
    List<JsonNode> groupValues = f.array("groups");
    for (int g = 0; g < groupValues.size(); g++) {
      Fields group = Fields.of(groupValues.get(g), "groups[" + g + "]");
      String name = group.string("name");
      List<TaskSpec> tasks = group.has(TaskChanges.KEY)
          ? TaskChanges.decode(group, group.array(TaskChanges.KEY), name) : wholeTasks(group, name);
      group.done();
      groups.add(new GroupSpec(name, tasks));
    }
    SettingsCodec settings = SettingsCodec.from(f.get("config"), root);
    SchedulerConfig config = settings.read(SchedulerKeys.TABLE);
    RunSpec spec = new RunSpec(f.string("name"), f.string("workdir"), config, groups, f.bool("groups-in-parallel"),
        f.string("gpus"), reporting(f.object("objective")));
    List<String> topLevel = new ArrayList<>();
    for (SettingsTable<?, ?> table : adapters) {
      spec = readInto(spec, table, settings);
      if (table.topLevel()) {
        f.ifGiven(table.name(), f::get); // read by the settings codec; absent when written without it
        topLevel.add(table.name());
      }
    }
    settings.done(topLevel);
    f.done();
    return spec;
  }

  /** A group's tasks as schema version 1 wrote them, each whole. */
  private static List<TaskSpec> wholeTasks(Fields group, String name) {
    List<TaskSpec> tasks = new ArrayList<>();
    List<JsonNode> values = group.array("tasks");
    Fields before = null;
    for (int t = 0; t < values.size(); t++) {
      Fields task = Fields.of(values.get(t), group.path("tasks") + "[" + t + "]").after(before);
      tasks.add(TaskCodec.fromJson(task, name));
      before = task;
    }
    return tasks;
  }

  private static <R> RunSpec readInto(RunSpec spec, SettingsTable<R, ?> table, SettingsCodec settings) {
    return table.into(spec, settings.read(table));
  }

  private static Reporting reporting(Fields objective) {
    String goal = objective.string("goal");
    if (!goal.equals("max") && !goal.equals("min")) {
      throw objective.wrong("goal", "max or min");
    }
    Reporting r = new Reporting(objective.optional("key", objective::string), goal.equals("max"));
    objective.done();
    return r;
  }

  /** The spec as a tree with every task written out whole, as {@link SpecDiff} compares them. */
  static ObjectNode toJson(RunSpec spec, List<SettingsTable<?, ?>> adapters) {
    return toJson(spec, adapters, false);
  }

  private static ObjectNode toJson(RunSpec spec, List<SettingsTable<?, ?>> adapters, boolean compact) {
    for (String carried : spec.adapters().all().keySet()) {
      if (adapters.stream().noneMatch(t -> t.name().equals(carried))) {
        throw new IllegalArgumentException("the run carries " + carried + " settings, which no table given reads");
      }
    }
    ObjectNode f = CanonicalJson.object();
    f.put("name", spec.name());
    f.put("workdir", spec.workdir());
    f.put("gpus", spec.gpus());
    f.put("groups-in-parallel", spec.groupsInParallel());
    SettingsCodec settings = SettingsCodec.into(f.putObject("config"), f);
    settings.write(SchedulerKeys.TABLE, spec.config());
    adapters.forEach(table -> write(settings, table, spec));
    Reporting r = spec.reporting();
    f.putObject("objective").put("key", r.objectiveKey().orElse(null)).put("goal", r.maximize() ? "max" : "min");
    ArrayNode groups = f.putArray("groups");
    for (GroupSpec g : spec.groups()) {
      ObjectNode group = groups.addObject().put("name", g.name());
      if (compact) {
        group.set(TaskChanges.KEY, TaskChanges.of(g.tasks()));
      } else {
        ArrayNode tasks = group.putArray("tasks");
        g.tasks().forEach(t -> tasks.add(TaskCodec.toJson(t)));
      }
    }
    return f;
  }

  private static <R> void write(SettingsCodec settings, SettingsTable<R, ?> table, RunSpec spec) {
    settings.write(table, table.of(spec));
  }
}
