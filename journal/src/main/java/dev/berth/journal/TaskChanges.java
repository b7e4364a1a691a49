package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A group's tasks written as changes: the first task whole (as {@link TaskCodec} writes it), each
 * later one as only the fields whose value differs from the task before it, plus under {@code "-"}
 * the names of fields the task before had and this one has not. The tasks of a sweep differ in
 * their id, parameters and the few fields their placeholders fill, so a task takes tens of bytes
 * instead of hundreds, and reading them again shares the unchanged values between tasks.
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

  /**
   * The tasks, in order, as changes. A task that differs from the one before only in its id and
   * parameters, as each task of a matrix after its first does, is written from those two alone: a
   * sweep's tasks are not each written whole to be compared field by field.
   */
  static ArrayNode of(List<TaskSpec> tasks) {
    ArrayNode changes = CanonicalJson.object().arrayNode(tasks.size());
    TaskSpec previous = null;
    ObjectNode previousWhole = null; // made only when a task must be compared field by field
    for (TaskSpec task : tasks) {
      if (previous != null && onlyIdAndParamsDiffer(previous, task)) {
        ObjectNode change = CanonicalJson.object().put("id", task.id().value());
        if (!task.params().equals(previous.params())) {
          change.set("params", CanonicalJson.strings(task.params()));
        }
        changes.add(change);
        previousWhole = null;
      } else {
        ObjectNode whole = TaskCodec.toJson(task);
        if (previous != null && previousWhole == null) {
          previousWhole = TaskCodec.toJson(previous);
        }
        changes.add(previous == null ? whole : change(previousWhole, whole));
        previousWhole = whole;
      }
      previous = task;
    }
    return changes;
  }

  /** Whether {@link TaskCodec#toJson} writes the two tasks alike but for their ids and parameters. */
  static boolean onlyIdAndParamsDiffer(TaskSpec a, TaskSpec b) {
    return a.settings().equals(b.settings()) && a.after().equals(b.after()) && a.follow().equals(b.follow())
        && Objects.equals(writtenTemplate(a), writtenTemplate(b));
  }

  /** The template as {@link TaskCodec#toJson} writes it: null for a task that is its own. */
  private static String writtenTemplate(TaskSpec t) {
    return t.template().equals(t.id().value()) ? null : t.template();
  }

  /** From one task written whole to the next: the fields that differ, and under {@code "-"} those it lacks. */
  static ObjectNode change(ObjectNode previous, ObjectNode whole) {
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
   * The tasks written by {@link #of}, read back in order. The task being read is kept as one tree,
   * changed in place by each task's changes, so values that did not change stay the same nodes and
   * {@link TaskCodec#fromJson} hands on what it read from them. A change of only the id and the
   * parameters, as each task of a matrix after its first is, makes the task from the one before with
   * those two replaced: the fields it shares are neither copied nor read again.
   *
   * @param group the group's fields, to name a malformed change in errors
   * @throws IllegalArgumentException when a change is not an object, unsets what is not there, or
   *     does not make a valid task
   */
  static List<TaskSpec> decode(Fields group, List<JsonNode> changes, String name) {
    List<TaskSpec> tasks = new ArrayList<>(changes.size());
    ObjectNode whole = CanonicalJson.object();
    Fields before = null;
    TaskSpec previous = null;
    for (int i = 0; i < changes.size(); i++) {
      String path = group.path(KEY) + "[" + i + "]";
      JsonNode change = changes.get(i);
      if (!change.isObject()) {
        throw new IllegalArgumentException(path + " must be an object but was " + change.getNodeType());
      }
      TaskSpec task = previous == null ? null : idAndParams(previous, change, templated(whole));
      for (Iterator<Map.Entry<String, JsonNode>> it = change.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        if (field.getKey().equals(UNSET)) {
          unset(whole, field.getValue(), path, previous == null);
        } else {
          whole.set(field.getKey(), field.getValue());
        }
      }
      if (task == null) {
        Fields fields = Fields.of(whole, group.path("tasks") + "[" + i + "]").after(before);
        task = TaskCodec.fromJson(fields, name);
        before = fields;
      }
      tasks.add(task);
      previous = task;
    }
    return tasks;
  }

  /**
   * The task {@code change} makes of {@code previous} when it changes nothing but a valid id and
   * string parameters; null otherwise, for the whole reading (and its errors) to decide.
   */
  private static TaskSpec idAndParams(TaskSpec previous, JsonNode change, boolean templated) {
    JsonNode id = change.get("id");
    JsonNode params = change.get("params");
    if (id == null || !id.isTextual() || change.size() != (params == null ? 1 : 2)
        || params != null && !stringValues(params)) {
      return null;
    }
    TaskId taskId;
    try {
      taskId = TaskId.of(id.textValue());
    } catch (IllegalArgumentException e) {
      return null;
    }
    SortedMap<String, String> values = previous.params();
    if (params != null) {
      values = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = params.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> p = it.next();
        values.put(p.getKey(), p.getValue().textValue());
      }
    }
    return previous.withIdAndParams(taskId, values, templated ? previous.template() : taskId.value());
  }

  /** Whether the task names its template; one that does not is its own (see {@link TaskCodec#fromJson}). */
  private static boolean templated(ObjectNode task) {
    JsonNode template = task.get("template");
    return template != null && !template.isNull();
  }

  private static boolean stringValues(JsonNode params) {
    if (!params.isObject()) {
      return false;
    }
    for (JsonNode v : params) {
      if (!v.isTextual()) {
        return false;
      }
    }
    return true;
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
