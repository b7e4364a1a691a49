package dev.berth.runtime.control.channel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON form of the control channel's lines (without the line end). Berth uses it for both
 * directions; tests use it to play a task. Unknown fields are ignored, so later versions can add
 * some; non-finite numbers ({@code NaN}, {@code Infinity}) are accepted although JSON lacks them.
 */
public final class ControlCodec {

  /** The protocol version this codec speaks, sent in every hello. */
  public static final int PROTOCOL = 1;

  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  /** A hello line's fields, before Berth checks them. */
  record HelloLine(String task, String token, int protocol, long pid) {}

  private ControlCodec() {}

  /** The line for a command. */
  public static String encode(ControlCommand command) {
    ObjectNode node = JSON.createObjectNode();
    if (command instanceof ControlCommand.Train t) {
      node.put("type", "train").put("device", t.device());
    } else {
      node.put("type", command instanceof ControlCommand.Load ? "load" : "exit");
    }
    return node.toString();
  }

  /** Reads a command line. */
  public static ControlCommand decodeCommand(String line) throws ControlProtocolException {
    ObjectNode node = object(line);
    String type = text(node, "type");
    return switch (type) {
      case "load" -> ControlCommand.load();
      case "train" -> ControlCommand.train(text(node, "device"));
      case "exit" -> ControlCommand.exit();
      default -> throw new ControlProtocolException("unknown command type '" + type + "'");
    };
  }

  /** The hello line a task sends first. */
  public static String hello(String task, String token, long pid) {
    ObjectNode node = JSON.createObjectNode()
        .put("type", "hello").put("task", task).put("token", token).put("protocol", PROTOCOL).put("pid", pid);
    return node.toString();
  }

  /**
   * The line for a message after the hello.
   *
   * @throws IllegalArgumentException for a {@link TaskMessage.Hello}, which needs {@link #hello}
   */
  public static String encode(TaskMessage message) {
    ObjectNode node = JSON.createObjectNode();
    if (message instanceof TaskMessage.Hello) {
      throw new IllegalArgumentException("a hello needs the task id and token; use hello(...)");
    } else if (message instanceof TaskMessage.Status s) {
      node.put("type", "status").put("status", s.status().name());
    } else if (message instanceof TaskMessage.Item i) {
      node.put("type", "item").put("key", i.key()).set("value", JSON.valueToTree(i.value()));
    } else if (message instanceof TaskMessage.Result r) {
      node.put("type", "result").set("result", JSON.valueToTree(r.result()));
    } else if (message instanceof TaskMessage.Finished f) {
      node.put("type", "finished").put("loadTimeMs", f.loadTimeMs()).put("trainTimeMs", f.trainTimeMs());
    } else if (message instanceof TaskMessage.Oom o) {
      node.put("type", "oom").put("stage", o.stage().name()).put("message", o.message());
    } else if (message instanceof TaskMessage.Failure f) {
      node.put("type", "exception").put("stage", f.stage().name())
          .put("message", f.message()).put("traceback", f.traceback());
    }
    return node.toString();
  }

  /** Reads a message line that follows the hello; a hello here is a protocol error. */
  public static TaskMessage decode(String line) throws ControlProtocolException {
    ObjectNode node = object(line);
    String type = text(node, "type");
    return switch (type) {
      case "status" -> new TaskMessage.Status(enumValue(TaskPhase.class, node, "status"));
      case "item" -> new TaskMessage.Item(text(node, "key"), value(node.get("value")));
      case "result" -> new TaskMessage.Result(map(node, "result"));
      case "finished" -> new TaskMessage.Finished(number(node, "loadTimeMs"), number(node, "trainTimeMs"));
      case "oom" -> new TaskMessage.Oom(enumValue(Stage.class, node, "stage"), optionalText(node, "message"));
      case "exception" -> new TaskMessage.Failure(
          enumValue(Stage.class, node, "stage"), optionalText(node, "message"), optionalText(node, "traceback"));
      case "hello" -> throw new ControlProtocolException("a second hello on the same connection");
      default -> throw new ControlProtocolException("unknown message type '" + type + "'");
    };
  }

  static HelloLine decodeHello(String line) throws ControlProtocolException {
    ObjectNode node = object(line);
    String type = text(node, "type");
    if (!type.equals("hello")) {
      throw new ControlProtocolException("the first line must be a hello, not '" + type + "'");
    }
    long protocol = number(node, "protocol");
    if (protocol < Integer.MIN_VALUE || protocol > Integer.MAX_VALUE) {
      throw new ControlProtocolException("field 'protocol' is out of range");
    }
    return new HelloLine(text(node, "task"), text(node, "token"), (int) protocol, number(node, "pid"));
  }

  private static ObjectNode object(String line) throws ControlProtocolException {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new ControlProtocolException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (!(node instanceof ObjectNode object)) {
      throw new ControlProtocolException("a line must hold one JSON object");
    }
    return object;
  }

  private static String text(ObjectNode node, String field) throws ControlProtocolException {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw new ControlProtocolException("field '" + field + "' must be a string");
    }
    return v.textValue();
  }

  private static String optionalText(ObjectNode node, String field) throws ControlProtocolException {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return "";
    }
    if (!v.isTextual()) {
      throw new ControlProtocolException("field '" + field + "' must be a string");
    }
    return v.textValue();
  }

  private static long number(ObjectNode node, String field) throws ControlProtocolException {
    JsonNode v = node.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new ControlProtocolException("field '" + field + "' must be an integer");
    }
    return v.longValue();
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, ObjectNode node, String field)
      throws ControlProtocolException {
    String name = text(node, field);
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new ControlProtocolException("field '" + field + "' has an unknown value '" + name + "'");
  }

  private static Map<String, Object> map(ObjectNode node, String field) throws ControlProtocolException {
    JsonNode v = node.get(field);
    if (v == null || !v.isObject()) {
      throw new ControlProtocolException("field '" + field + "' must be an object");
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : v.properties()) {
      out.put(e.getKey(), value(e.getValue()));
    }
    return out;
  }

  private static Object value(JsonNode node) throws ControlProtocolException {
    if (node == null || node.isNull()) {
      return null;
    }
    try {
      return JSON.treeToValue(node, Object.class);
    } catch (JsonProcessingException e) {
      throw new ControlProtocolException("cannot read value: " + e.getOriginalMessage(), e);
    }
  }
}
