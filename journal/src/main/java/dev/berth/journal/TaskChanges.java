package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A group's tasks written as changes: the first task whole (as {@link TaskCodec} writes it), each
 * later one as only the fields whose value differs from the task before it, plus under {@code "-"}
 * the names of fields the task before had and this one has not. The tasks of a sweep differ in
 * their id, parameters and the few fields their placeholders fill, so a task takes tens of bytes
 * instead of hundreds, and expanding them again shares the unchanged values between tasks.
 *
 * <pre>
 * "task-changes":[{"command":["true"],"id":"t-0-0","memory":1048576,...,"params":{"a":"0","b":"0"}},
 *                 {"id":"t-0-1","params":{"a":"0","b":"1"}}, ...]
 * </pre>
 */
final class TaskChanges {

  /** The key of a group's tasks written as changes. */
  static final String KEY = "task-changes";

  /** The key listing the fields a task lacks that the task before it had. */
  private static final String UNSET = "-";

  private TaskChanges() {}

  /** The tasks, in order, as changes. */
  static ArrayNode of(List<TaskSpec> tasks) {
    ArrayNode changes = CanonicalJson.object().arrayNode(tasks.size());
    ObjectNode previous = null;
    for (TaskSpec task : tasks) {
      ObjectNode whole = TaskCodec.toJson(task);
      changes.add(previous == null ? whole : change(previous, whole));
      previous = whole;
    }
    return changes;
  }

  private static ObjectNode change(ObjectNode previous, ObjectNode whole) {
    ObjectNode change = CanonicalJson.object();
    for (Iterator<Map.Entry<String, JsonNode>> it = whole.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      if (!field.getValue().equals(previous.get(field.getKey()))) {
        change.set(field.getKey(), field.getValue());
      }
    }
    for (Iterator<String> it = previous.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!whole.has(name)) {
        change.withArray(UNSET).add(name);
      }
    }
    return change;
  }

  /**
   * The tasks written by {@link #of}, each whole again, for {@link TaskCodec#fromJson} to read.
   *
   * @param group the group's fields, to name a malformed change in errors
   * @throws IllegalArgumentException when a change is not an object or unsets what is not there
   */
  static List<JsonNode> expand(Fields group, List<JsonNode> changes) {
    List<JsonNode> tasks = new ArrayList<>(changes.size());
    ObjectNode previous = null;
    for (int i = 0; i < changes.size(); i++) {
      String path = group.path(KEY) + "[" + i + "]";
      JsonNode change = changes.get(i);
      if (!change.isObject()) {
        throw new IllegalArgumentException(path + " must be an object but was " + change.getNodeType());
      }
      ObjectNode whole = CanonicalJson.object();
      if (previous != null) {
        whole.setAll(previous);
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = change.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (field.getKey().equals(UNSET)) {
          unset(whole, field.getValue(), path, previous == null);
        } else {
          whole.set(field.getKey(), field.getValue());
        }
      }
      tasks.add(whole);
      previous = whole;
    }
    return tasks;
  }

  private static void unset(ObjectNode whole, JsonNode names, String path, boolean first) {
    if (first || !names.isArray()) {
      throw new IllegalArgumentException(path + "." + UNSET + (first
          ? " cannot unset fields of a group's first task" : " must be an array of field names"));
    }
    for (JsonNode name : names) {
      if (!name.isTextual() || whole.remove(name.asText()) == null) {
        throw new IllegalArgumentException(path + "." + UNSET + " unsets " + name + ", which the task before lacks");
      }
    }
  }
}
