package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;

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
    return CanonicalJson.write(toJson(spec));
  }

  /**
   * The spec written by {@link #encode}, validated by the model's own constructors.
   *
   * @throws IllegalArgumentException naming the field when the text is not such a spec
   */
  public static RunSpec decode(String json) {
    Fields f = Fields.of(CanonicalJson.parse(json), "");
    List<GroupSpec> groups = new ArrayList<>();
    List<JsonNode> groupValues = f.array("groups");
    for (int g = 0; g < groupValues.size(); g++) {
      Fields group = Fields.of(groupValues.get(g), "groups[" + g + "]");
      String name = group.string("name");
      List<TaskSpec> tasks = new ArrayList<>();
      List<JsonNode> taskValues = group.array("tasks");
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

  static ObjectNode toJson(RunSpec spec) {
    ObjectNode f = CanonicalJson.object();
    f.put("name", spec.name());
    f.put("workdir", spec.workdir());
    f.put("gpus", spec.gpus());
    f.put("groups-in-parallel", spec.groupsInParallel());
    f.set("config", ConfigCodec.toJson(spec.config()));
    Reporting r = spec.reporting();
    f.putObject("objective").put("key", r.objectiveKey().orElse(null)).put("goal", r.maximize() ? "max" : "min");
    f.putObject("notify").put("webhook", r.webhookUrl().orElse(null))
        .set("on", CanonicalJson.strings(r.webhookEvents()));
    ArrayNode groups = f.putArray("groups");
    for (GroupSpec g : spec.groups()) {
      ArrayNode tasks = groups.addObject().put("name", g.name()).putArray("tasks");
      g.tasks().forEach(t -> tasks.add(TaskCodec.toJson(t)));
    }
    return f;
  }
}
