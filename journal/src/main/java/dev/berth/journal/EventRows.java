package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.lifecycle.TaskEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How an event is stored in a row of the {@code event} table since schema version 3: its type and
 * instant in columns of their own ({@code type}, {@code at} as nanoseconds since the epoch) and, in
 * {@code json}, the {@link EventCodec} fields less those that hold their usual value, under short
 * names, so that a no-op task's events take a quarter of what they took. Exact as
 * {@link EventCodec}: what is left out is put back as it was. Rows of older versions hold the full
 * {@link EventCodec} text and no {@code at}.
 *
 * <pre>
 * type=launched json={"a":1,"p":{"m":1048576}}
 * type=started  json={"a":1,"i":4242}
 * type=ended    json={"o":"SUCCEEDED","u":{"h":520192,"s":0.0025},"x":0}
 * </pre>
 *
 * Left out when so: a launch's {@code pid} -1 and {@code two-stage} false; a placement's device
 * {@code cpu} and its zero amounts; an ending's {@code exit-code} and {@code message} when null and
 * its {@code target} when it is named as its outcome; a measurement's {@code exact} when true.
 * The short names are those of {@link #SHORT}.
 */
final class EventRows {

  /** The {@code task} column of a row that stands for several tasks. */
  static final String MANY = "*";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final Map<String, JsonNode> PLACEMENT = Map.of(
      "device", NODES.textNode("cpu"), "memory", NODES.numberNode(0L), "milli-cpus", NODES.numberNode(0L),
      "gpu-memory", NODES.numberNode(0L));
  private static final Map<String, JsonNode> LAUNCHED = Map.of(
      "pid", NODES.numberNode(-1L), "two-stage", NODES.booleanNode(false));
  private static final Map<String, JsonNode> ENDED = Map.of("exit-code", NODES.nullNode(), "message", NODES.nullNode());
  private static final Map<String, JsonNode> USAGE = Map.of("exact", NODES.booleanNode(true));

  /** The short name of each field of an event, its placement and its measurement. */
  static final Map<String, String> SHORT = Map.ofEntries(
      Map.entry("attempt", "a"), Map.entry("placement", "p"), Map.entry("pid", "i"), Map.entry("two-stage", "w"),
      Map.entry("learned", "l"), Map.entry("cluster-id", "j"), Map.entry("target", "t"), Map.entry("train", "n"),
      Map.entry("outcome", "o"), Map.entry("stage", "g"), Map.entry("message", "e"), Map.entry("exit-code", "x"),
      Map.entry("usage", "u"), Map.entry("reason", "r"),
      Map.entry("device", "d"), Map.entry("memory", "m"), Map.entry("milli-cpus", "c"), Map.entry("gpu-memory", "q"),
      Map.entry("peak-host-memory", "h"), Map.entry("cpu-seconds", "s"), Map.entry("peak-gpu-memory", "v"),
      Map.entry("exact", "k"));
  private static final Map<String, String> LONG = inverse(SHORT);

  /** The fields that hold an object of fields of their own, named and left out as the event's are. */
  private static final Set<String> NESTED = Set.of("placement", "usage");

  private EventRows() {}

  /** The {@code json} column of the event's row. */
  static String json(TaskEvent event) {
    if (event instanceof TaskEvent.Released) {
      return "{}"; // its type and instant say it all; a sweep's first pass releases every task
    }
    return CanonicalJson.write(tree(event));
  }

  /** What the {@code json} column of the event's row holds, as a tree. */
  static ObjectNode tree(TaskEvent event) {
    String type = EventCodec.type(event);
    ObjectNode f = EventCodec.fields(event);
    if (type.equals("ended") && f.get("target").asText().equals(f.get("outcome").asText())) {
      f.remove("target");
    }
    return shortened(f, type, usualOf(type));
  }

  /** The {@code at} column: nanoseconds since the epoch. */
  static long at(Instant at) {
    return Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
  }

  /** The event of a row written by {@link #json} and {@link #at}. */
  static TaskEvent event(String type, long atNanos, String json) {
    ObjectNode f = lengthened((ObjectNode) CanonicalJson.parse(json), type, usualOf(type));
    if (type.equals("ended") && !f.has("target") && f.has("outcome")) {
      f.set("target", f.get("outcome"));
    }
    f.put("type", type);
    return EventCodec.fromJson(f,
        Instant.ofEpochSecond(Math.floorDiv(atNanos, 1_000_000_000L), Math.floorMod(atNanos, 1_000_000_000L)));
  }

  /**
   * A copy of the object, and of its placement and measurement, under short names and without the
   * fields that hold their {@code usual} value: one pass, as this is done for every event written.
   */
  private static ObjectNode shortened(ObjectNode f, String type, Map<String, JsonNode> usual) {
    ObjectNode row = CanonicalJson.object();
    for (Map.Entry<String, JsonNode> field : f.properties()) {
      String name = field.getKey();
      JsonNode value = field.getValue();
      JsonNode usualValue = usual.get(name);
      if (usualValue == null || !usualValue.equals(value)) {
        boolean nests = value instanceof ObjectNode && NESTED.contains(name);
        row.set(SHORT.getOrDefault(name, name),
            nests ? shortened((ObjectNode) value, type, usualIn(type, name)) : value);
      }
    }
    return row;
  }

  /** A copy of a row's object, and of its placement and measurement, under full names, the usual values put back. */
  private static ObjectNode lengthened(ObjectNode row, String type, Map<String, JsonNode> usual) {
    ObjectNode f = CanonicalJson.object();
    for (Map.Entry<String, JsonNode> field : row.properties()) {
      String name = LONG.getOrDefault(field.getKey(), field.getKey());
      JsonNode value = field.getValue();
      boolean nests = value instanceof ObjectNode && NESTED.contains(name);
      f.set(name, nests ? lengthened((ObjectNode) value, type, usualIn(type, name)) : value);
    }
    usual.forEach(f::putIfAbsent);
    return f;
  }

  private static Map<String, String> inverse(Map<String, String> names) {
    Map<String, String> inverse = new java.util.TreeMap<>();
    names.forEach((full, brief) -> {
      if (inverse.put(brief, full) != null) {
        throw new IllegalStateException("two fields are shortened to " + brief);
      }
    });
    return inverse;
  }

  /** The usual values of the fields of an event of the type. */
  private static Map<String, JsonNode> usualOf(String type) {
    return switch (type) {
      case "launched" -> LAUNCHED;
      case "ended" -> ENDED;
      default -> Map.of();
    };
  }

  /** The usual values of the fields of the object under {@code field} (one of {@link #NESTED}) of the type's events. */
  private static Map<String, JsonNode> usualIn(String type, String field) {
    if (field.equals("placement")) {
      return PLACEMENT;
    }
    return type.equals("ended") ? USAGE : Map.of();
  }

  /** The {@code json} of a row that releases several tasks at one instant (its {@code task} is {@link #MANY}). */
  static String released(List<String> tasks) {
    ObjectNode f = CanonicalJson.object();
    f.set("tasks", CanonicalJson.strings(tasks));
    return CanonicalJson.write(f);
  }
}
