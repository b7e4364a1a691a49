package dev.berth.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The control channel's messages as lines of JSON (without the line end), for both ends: Berth
 * writes commands and reads a task's messages; the task worker (and tests that play a task) do the
 * reverse. Unknown fields are ignored, so later versions can add some; non-finite numbers
 * ({@code NaN}, {@code Infinity}) are accepted although JSON lacks them. Fields are written in the
 * order {@code docs/protocol.md} shows them.
 */
public final class ControlCodec {

  /** The protocol version this codec speaks, sent in every hello. */
  public static final int PROTOCOL = 1;

  /**
   * A hello line's fields, before Berth checks them.
   *
   * @param task the task id the process says it runs
   * @param token the token it was given
   * @param protocol the protocol version it speaks
   * @param pid its process id
   */
  public record HelloLine(String task, String token, int protocol, long pid) {}

  private ControlCodec() {}

  /** The line for a command. */
  public static String encode(ControlCommand command) {
    if (command instanceof ControlCommand.Train t) {
      return line("type", t.type(), "device", t.device());
    }
    return line("type", command.type());
  }

  /** Reads a command line. */
  public static ControlCommand decodeCommand(String line) throws ControlProtocolException {
    Map<String, Object> fields = object(line);
    String type = text(fields, "type");
    return switch (type) {
      case "load" -> ControlCommand.load();
      case "train" -> {
        String device = text(fields, "device");
        if (device.isBlank()) {
          throw new ControlProtocolException("field 'device' must not be blank");
        }
        yield ControlCommand.train(device);
      }
      case "exit" -> ControlCommand.exit();
      default -> throw new ControlProtocolException("unknown command type '" + type + "'");
    };
  }

  /** The hello line a task sends first. */
  public static String hello(String task, String token, long pid) {
    return line("type", "hello", "task", task, "token", token, "protocol", PROTOCOL, "pid", pid);
  }

  /**
   * The line for a message after the hello.
   *
   * @throws IllegalArgumentException for a {@link TaskMessage.Hello}, which needs {@link #hello}, or
   *     for an item or result value that contains itself
   */
  public static String encode(TaskMessage message) {
    if (message instanceof TaskMessage.Status s) {
      return line("type", "status", "status", s.status().name());
    } else if (message instanceof TaskMessage.Item i) {
      return line("type", "item", "key", i.key(), "value", i.value());
    } else if (message instanceof TaskMessage.Result r) {
      return line("type", "result", "result", r.result());
    } else if (message instanceof TaskMessage.Finished f) {
      return line("type", "finished", "loadTimeMs", f.loadTimeMs(), "trainTimeMs", f.trainTimeMs());
    } else if (message instanceof TaskMessage.Oom o) {
      return line("type", "oom", "stage", o.stage().name(), "message", o.message());
    } else if (message instanceof TaskMessage.Failure f) {
      return line("type", "exception", "stage", f.stage().name(), "message", f.message(), "traceback", f.traceback());
    }
    throw new IllegalArgumentException("a hello needs the task id and token; use hello(...)");
  }

  /** Reads a message line that follows the hello; a hello here is a protocol error. */
  public static TaskMessage decode(String line) throws ControlProtocolException {
    Map<String, Object> fields = object(line);
    String type = text(fields, "type");
    return switch (type) {
      case "status" -> new TaskMessage.Status(enumValue(TaskPhase.class, fields, "status"));
      case "item" -> new TaskMessage.Item(text(fields, "key"), fields.get("value"));
      case "result" -> new TaskMessage.Result(map(fields, "result"));
      case "finished" -> new TaskMessage.Finished(number(fields, "loadTimeMs"), number(fields, "trainTimeMs"));
      case "oom" -> new TaskMessage.Oom(enumValue(Stage.class, fields, "stage"), optionalText(fields, "message"));
      case "exception" -> new TaskMessage.Failure(
          enumValue(Stage.class, fields, "stage"), optionalText(fields, "message"), optionalText(fields, "traceback"));
      case "hello" -> throw new ControlProtocolException("a second hello on the same connection");
      default -> throw new ControlProtocolException("unknown message type '" + type + "'");
    };
  }

  /** Reads the first line of a connection, which must be a hello. */
  public static HelloLine decodeHello(String line) throws ControlProtocolException {
    Map<String, Object> fields = object(line);
    String type = text(fields, "type");
    if (!type.equals("hello")) {
      throw new ControlProtocolException("the first line must be a hello, not '" + type + "'");
    }
    long protocol = number(fields, "protocol");
    if (protocol < Integer.MIN_VALUE || protocol > Integer.MAX_VALUE) {
      throw new ControlProtocolException("field 'protocol' is out of range");
    }
    return new HelloLine(text(fields, "task"), text(fields, "token"), (int) protocol, number(fields, "pid"));
  }

  /** A message in the order of its keys and values, as the protocol document shows it. */
  private static String line(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return MessageJson.write(map);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> object(String line) throws ControlProtocolException {
    Object value;
    try {
      value = MessageJson.parse(line);
    } catch (IllegalArgumentException e) {
      throw new ControlProtocolException("not JSON: " + e.getMessage(), e);
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new ControlProtocolException("a line must hold one JSON object");
    }
    return (Map<String, Object>) map;
  }

  private static String text(Map<String, Object> fields, String field) throws ControlProtocolException {
    if (fields.get(field) instanceof String s) {
      return s;
    }
    throw new ControlProtocolException("field '" + field + "' must be a string");
  }

  private static String optionalText(Map<String, Object> fields, String field) throws ControlProtocolException {
    return fields.get(field) == null ? "" : text(fields, field);
  }

  private static long number(Map<String, Object> fields, String field) throws ControlProtocolException {
    Object v = fields.get(field);
    if (v instanceof Integer || v instanceof Long) {
      return ((Number) v).longValue();
    }
    throw new ControlProtocolException("field '" + field + "' must be an integer");
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, Map<String, Object> fields, String field)
      throws ControlProtocolException {
    String name = text(fields, field);
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new ControlProtocolException("field '" + field + "' has an unknown value '" + name + "'");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Map<String, Object> fields, String field) throws ControlProtocolException {
    if (fields.get(field) instanceof Map<?, ?> map) {
      return (Map<String, Object>) map;
    }
    throw new ControlProtocolException("field '" + field + "' must be an object");
  }
}
