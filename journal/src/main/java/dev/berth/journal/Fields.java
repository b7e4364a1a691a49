package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Reads the fields of one JSON object for a decoder, with errors that name the path and the field,
 * e.g. {@code "groups[0].tasks[2].memory must be a whole number but was \"x\""}. Every field must be
 * read: {@link #done()} rejects fields nobody asked for, so a misspelt or unknown field is an error.
 * Jackson parses the text; this adds the strictness and the paths its tree does not have.
 */
final class Fields {

  private final JsonNode object;
  private final String path;
  private final Set<String> read = new HashSet<>();

  /** The fields read before these, whose values {@link #same} may hand on; null for none. */
  private Fields earlier;

  /** What {@link #same} read: for each key, the node it read and the value; made on first use. */
  private Map<String, Object[]> kept;

  private Fields(JsonNode object, String path) {
    this.object = object;
    this.path = path;
  }

  /** The fields of {@code value}, which must be an object; {@code path} is its place, for errors. */
  static Fields of(JsonNode value, String path) {
    if (value == null || !value.isObject()) {
      throw new IllegalArgumentException((path.isEmpty() ? "the value" : path) + " must be an object but was "
          + shown(value));
    }
    return new Fields(value, path);
  }

  /**
   * These fields, reading after {@code before}: where both hold the very same node (as the tasks
   * {@link TaskChanges} expands share every value that did not change), {@link #same} hands on the
   * value {@code before} read instead of reading it again, so the tasks of a sweep share it too.
   */
  Fields after(Fields before) {
    if (before != null) {
      before.earlier = null; // done reading: a long run of tasks must not hold every one before it
    }
    earlier = before;
    return this;
  }

  /** The value {@code reader} reads for {@code key}, or the one the earlier fields read from the same node. */
  <T> T same(String key, Function<String, T> reader) {
    return same(key, key, reader);
  }

  /**
   * As {@link #same(String, Function)}, for a value {@code reader} makes from field {@code key}, kept
   * under {@code name} apart from the field's own value.
   */
  @SuppressWarnings("unchecked")
  <T> T same(String key, String name, Function<String, T> reader) {
    JsonNode node = object.get(key);
    Object[] before = earlier == null || earlier.kept == null ? null : earlier.kept.get(name);
    T value;
    if (node != null && before != null && before[0] == node) {
      read.add(key);
      value = (T) before[1];
    } else {
      value = reader.apply(key);
    }
    if (kept == null) {
      kept = new HashMap<>();
    }
    kept.put(name, new Object[] {node, value});
    return value;
  }

  /** The path of field {@code key}. */
  String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The raw value; present, possibly JSON {@code null}. */
  JsonNode get(String key) {
    read.add(key);
    JsonNode v = object.get(key);
    if (v == null) {
      throw new IllegalArgumentException(path(key) + " is missing");
    }
    return v;
  }

  /** Whether the object has the field at all (a field newer Berths write only when it has a value). */
  boolean has(String key) {
    return object.has(key);
  }

  /** Whether the field is present and not {@code null}; marks it read. */
  boolean present(String key) {
    return !get(key).isNull();
  }

  String string(String key) {
    JsonNode v = get(key);
    if (v.isTextual()) {
      return v.textValue();
    }
    throw wrong(key, "a string");
  }

  /** A string, or null for JSON {@code null}. */
  String stringOrNull(String key) {
    return present(key) ? string(key) : null;
  }

  boolean bool(String key) {
    JsonNode v = get(key);
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    throw wrong(key, "true or false");
  }

  /** A number exactly as written. */
  BigDecimal decimal(String key, String expected) {
    JsonNode v = get(key);
    if (v.isNumber()) {
      return v.decimalValue();
    }
    throw wrong(key, expected);
  }

  long longValue(String key) {
    try {
      return decimal(key, "a whole number").longValueExact();
    } catch (ArithmeticException e) {
      throw wrong(key, "a whole number");
    }
  }

  int intValue(String key) {
    long v = longValue(key);
    if (v != (int) v) {
      throw wrong(key, "a whole number in the int range");
    }
    return (int) v;
  }

  Instant instant(String key) {
    try {
      return Instant.parse(string(key));
    } catch (DateTimeParseException e) {
      throw wrong(key, "an ISO-8601 instant such as 2024-01-31T12:00:00.123456789Z");
    }
  }

  /** An enum constant by its name. */
  <E extends Enum<E>> E enumValue(String key, Class<E> type) {
    String name = string(key);
    try {
      return Enum.valueOf(type, name);
    } catch (IllegalArgumentException e) {
      throw wrong(key, "one of " + List.of(type.getEnumConstants()));
    }
  }

  /**
   * Empty when the field is absent (written by a Berth that did not know it yet) or {@code null},
   * else the value read by {@code reader}.
   */
  <T> Optional<T> ifGiven(String key, Function<String, T> reader) {
    read.add(key);
    JsonNode v = object.get(key);
    return v == null || v.isNull() ? Optional.empty() : Optional.of(reader.apply(key));
  }

  /** Empty for JSON {@code null}, else the value read by {@code reader}. */
  <T> Optional<T> optional(String key, Function<String, T> reader) {
    return present(key) ? Optional.of(reader.apply(key)) : Optional.empty();
  }

  /** The nested object's fields. */
  Fields object(String key) {
    return of(get(key), path(key));
  }

  /** The array's elements. */
  List<JsonNode> array(String key) {
    JsonNode v = get(key);
    if (!v.isArray()) {
      throw wrong(key, "an array");
    }
    List<JsonNode> items = new ArrayList<>();
    v.forEach(items::add);
    return items;
  }

  List<String> strings(String key) {
    List<String> out = new ArrayList<>();
    for (JsonNode item : array(key)) {
      if (!item.isTextual()) {
        throw wrong(key, "an array of strings");
      }
      out.add(item.textValue());
    }
    return List.copyOf(out);
  }

  /** An object of string values. */
  SortedMap<String, String> stringMap(String key) {
    SortedMap<String, String> out = new TreeMap<>();
    Fields map = object(key);
    map.object.fieldNames().forEachRemaining(k -> out.put(k, map.string(k)));
    return out;
  }

  /** Rejects fields that were not read. */
  void done() {
    object.fieldNames().forEachRemaining(key -> {
      if (!read.contains(key)) {
        throw new IllegalArgumentException(path(key) + " is not a known field");
      }
    });
  }

  /** An error about the field at {@code key}, as the rule its key's parser gave says it. */
  IllegalArgumentException invalid(String key, String rule) {
    return new IllegalArgumentException(path(key) + (rule.startsWith("must ") ? " " : ": ") + rule);
  }

  /** An error about the field at {@code key}. */
  IllegalArgumentException wrong(String key, String expected) {
    return new IllegalArgumentException(path(key) + " must be " + expected + " but was " + shown(object.get(key)));
  }

  private static String shown(JsonNode value) {
    return value == null ? "null" : CanonicalJson.write(value);
  }
}
