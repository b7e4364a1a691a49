package dev.berth.journal;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link RunSpec} to and from canonical JSON, so that a resumed run can be rebuilt from its journal
 * alone. Every field of every record of the model round-trips exactly, except the SMTP password,
 * which is never written (see {@link ConfigCodec}); equal specs give equal text
 * (keys sorted, no whitespace), so the text's SHA-256 identifies a spec. Keys follow the spec file:
 *
 * <pre>
 * {"config":{"remain-limit":{...},"scheduler":{"max-process":20,...},"utilization-limit":{...}},
 *  "gpus":"auto","groups":[{"name":"train","tasks":[{"id":"train-0.1-1","memory":1073741824,...}]}],
 *  "groups-in-parallel":false,"name":"quickstart","notify":{"on":[],"webhook":null},
 *  "objective":{"goal":"max","key":null},"workdir":"berth-out/quickstart"}
 * </pre>
 */
public final class SpecCodec {

  private SpecCodec() {}

  /** The spec's canonical JSON text. */
  public static String encode(RunSpec spec) {
    return toJson(spec).toString();
  }

  /**
   * The spec written by {@link #encode}, validated by the model's own constructors.
   *
   * @throws IllegalArgumentException naming the field when the text is not such a spec
   */
  public static RunSpec decode(String json) {
    Fields f = Fields.of(JsonParser.parse(json), "");
    List<GroupSpec> groups = new ArrayList<>();
    List<Json> groupValues = f.array("groups");
    for (int g = 0; g < groupValues.size(); g++) {
      Fields group = Fields.of(groupValues.get(g), "groups[" + g + "]");
      String name = group.string("name");
      List<TaskSpec> tasks = new ArrayList<>();
      List<Json> taskValues = group.array("tasks");
      for (int t = 0; t < taskValues.size(); t++) {
        tasks.add(TaskCodec.fromJson(Fields.of(taskValues.get(t), group.path("tasks") + "[" + t + "]"), name));
      }
      group.done();
      groups.add(new GroupSpec(name, tasks));
    }
    RunSpec spec = new RunSpec(
        f.string("name"), f.string("workdir"), ConfigCodec.fromJson(f.object("config")), groups,
        f.bool("groups-in-parallel"), f.string("gpus"), reporting(f.object("objective"), f.object("notify")));
    f.done();
    return spec;
  }

  private static Reporting reporting(Fields objective, Fields notify) {
    String goal = objective.string("goal");
    if (!goal.equals("max") && !goal.equals("min")) {
      throw objective.wrong("goal", "max or min");
    }
    Reporting r = new Reporting(
        objective.optional("key", objective::string), goal.equals("max"), notify.optional("webhook", notify::string),
        notify.strings("on"));
    objective.done();
    notify.done();
    return r;
  }

  static Json toJson(RunSpec spec) {
    Map<String, Json> f = new LinkedHashMap<>();
    f.put("name", Json.of(spec.name()));
    f.put("workdir", Json.of(spec.workdir()));
    f.put("gpus", Json.of(spec.gpus()));
    f.put("groups-in-parallel", Json.of(spec.groupsInParallel()));
    f.put("config", ConfigCodec.toJson(spec.config()));
    Reporting r = spec.reporting();
    Map<String, Json> objective = new LinkedHashMap<>();
    objective.put("key", r.objectiveKey().map(Json::of).orElse(Json.NULL));
    objective.put("goal", Json.of(r.maximize() ? "max" : "min"));
    f.put("objective", new Json.Obj(objective));
    Map<String, Json> notify = new LinkedHashMap<>();
    notify.put("webhook", r.webhookUrl().map(Json::of).orElse(Json.NULL));
    notify.put("on", Json.strings(r.webhookEvents()));
    f.put("notify", new Json.Obj(notify));
    List<Json> groups = new ArrayList<>();
    for (GroupSpec g : spec.groups()) {
      Map<String, Json> group = new LinkedHashMap<>();
      group.put("name", Json.of(g.name()));
      group.put("tasks", new Json.Arr(g.tasks().stream().map(TaskCodec::toJson).toList()));
      groups.add(new Json.Obj(group));
    }
    f.put("groups", new Json.Arr(groups));
    return new Json.Obj(f);
  }
}
