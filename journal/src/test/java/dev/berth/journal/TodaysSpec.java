package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * A spec stored by an earlier Berth as today's Berth writes it again. Keys added since are written
 * only when set (see {@code ConfigKey.asJournaledWhenSet}), so they do not appear; what changes is
 * what Berth no longer writes: the webhook's address, a secret now, and the retired
 * {@code scheduler.learn-usage}, whose place the learning keys took at their defaults; and each
 * group's tasks, written whole before, are written as {@link TaskChanges}.
 */
final class TodaysSpec {

  private TodaysSpec() {}

  /** {@code storedSpec} without the fields this Berth no longer writes. */
  static String of(String storedSpec) {
    return asChanges(storedSpec
        .replaceAll(",\"webhook\":(null|\"[^\"]*\")", "")
        .replaceAll("\"webhook\":(null|\"[^\"]*\"),", "")
        .replaceAll("\"learn-usage\":\"[a-z]*\",", ""));
  }

  /** The groups rewritten from the tasks they read as; only they, so the rest stays byte for byte. */
  private static String asChanges(String spec) {
    int from = spec.indexOf("\"groups\":[") + "\"groups\":".length();
    int to = spec.indexOf("],\"groups-in-parallel\"") + 1;
    ArrayNode groups = CanonicalJson.object().arrayNode();
    for (JsonNode group : CanonicalJson.parse(spec.substring(from, to))) {
      String name = group.get("name").textValue();
      List<TaskSpec> tasks = new ArrayList<>();
      group.get("tasks").forEach(t -> tasks.add(TaskCodec.fromJson(Fields.of(t, ""), name)));
      groups.addObject().put("name", name).set(TaskChanges.KEY, TaskChanges.of(tasks));
    }
    return spec.substring(0, from) + CanonicalJson.write(groups) + spec.substring(to);
  }
}
