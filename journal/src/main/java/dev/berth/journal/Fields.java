package dev.berth.journal;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
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
 */
final class Fields {

  private final Map<String, Json> fields;
  private final String path;
  private final Set<String> read = new HashSet<>();

  private Fields(Map<String, Json> fields, String path) {
    this.fields = fields;
    this.path = path;
  }

  /** The fields of {@code value}, which must be an object; {@code path} is its place, for errors. */
  static Fields of(Json value, String path) {
    if (!(value instanceof Json.Obj obj)) {
      throw new IllegalArgumentException((path.isEmpty() ? "the value" : path) + " must be an object but was " + value);
    }
    return new Fields(obj.fields(), path);
  }

  /** The path of field {@code key}. */
  String path(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The raw value; present, possibly {@code null}. */
  Json get(String key) {
    read.add(key);
    Json v = fields.get(key);
    if (v == null) {
      throw new IllegalArgumentException(path(key) + " is missing");
    }
    return v;
  }

  /** Whether the field is present and not {@code null}; marks it read. */
  boolean present(String key) {
    return !(get(key) instanceof Json.Null);
  }

  String string(String key) {
    if (get(key) instanceof Json.Str s) {
      return s.value();
    }
    throw wrong(key, "a string");
  }

  /** A string, or null for JSON {@code null}. */
  String stringOrNull(String key) {
    return present(key) ? string(key) : null;
  }

  boolean bool(String key) {
    if (get(key) instanceof Json.Bool b) {
      return b.value();
    }
    throw wrong(key, "true or false");
  }

  long longValue(String key) {
    if (get(key) instanceof Json.Num n) {
      try {
        return n.longValue();
      } catch (ArithmeticException e) {
        throw wrong(key, "a whole number");
      }
    }
    throw wrong(key, "a whole number");
  }

  int intValue(String key) {
    long v = longValue(key);
    if (v != (int) v) {
      throw wrong(key, "a whole number in the int range");
    }
    return (int) v;
  }

  double doubleValue(String key) {
    if (get(key) instanceof Json.Num n) {
      return n.doubleValue();
    }
    throw wrong(key, "a number");
  }

  Instant instant(String key) {
    try {
      return Instant.parse(string(key));
    } catch (DateTimeParseException e) {
      throw wrong(key, "an ISO-8601 instant such as 2024-01-31T12:00:00.123456789Z");
    }
  }

  Duration duration(String key) {
    try {
      return Duration.parse(string(key));
    } catch (DateTimeParseException e) {
      throw wrong(key, "an ISO-8601 duration such as PT1.5S");
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
    Json v = fields.get(key);
    return v == null || v instanceof Json.Null ? Optional.empty() : Optional.of(reader.apply(key));
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
  List<Json> array(String key) {
    if (get(key) instanceof Json.Arr a) {
      return a.items();
    }
    throw wrong(key, "an array");
  }

  List<String> strings(String key) {
    List<String> out = new ArrayList<>();
    for (Json item : array(key)) {
      if (!(item instanceof Json.Str s)) {
        throw wrong(key, "an array of strings");
      }
      out.add(s.value());
    }
    return out;
  }

  List<Integer> ints(String key) {
    List<Integer> out = new ArrayList<>();
    for (Json item : array(key)) {
      if (!(item instanceof Json.Num n)) {
        throw wrong(key, "an array of whole numbers");
      }
      try {
        out.add(Math.toIntExact(n.longValue()));
      } catch (ArithmeticException e) {
        throw wrong(key, "an array of whole numbers");
      }
    }
    return out;
  }

  /** An object of string values. */
  SortedMap<String, String> stringMap(String key) {
    SortedMap<String, String> out = new TreeMap<>();
    Fields map = object(key);
    for (String k : map.fields.keySet()) {
      out.put(k, map.string(k));
    }
    return out;
  }

  /** Rejects fields that were not read. */
  void done() {
    for (String key : fields.keySet()) {
      if (!read.contains(key)) {
        throw new IllegalArgumentException(path(key) + " is not a known field");
      }
    }
  }

  /** An error about the field at {@code key}. */
  IllegalArgumentException wrong(String key, String expected) {
    return new IllegalArgumentException(path(key) + " must be " + expected + " but was " + fields.get(key));
  }
}
