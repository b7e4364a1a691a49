package dev.berth.journal;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A JSON value: the tree the codecs build and read. {@link #toString()} is the canonical text
 * (see {@link JsonWriter}).
 */
sealed interface Json {

  /** JSON {@code null}. */
  Json NULL = new Null();

  /** An object; keys keep insertion order here, the canonical text sorts them. */
  record Obj(Map<String, Json> fields) implements Json {
    public Obj {
      fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    }

    @Override
    public String toString() {
      return JsonWriter.write(this);
    }
  }

  /** An array. */
  record Arr(List<Json> items) implements Json {
    public Arr {
      items = List.copyOf(items);
    }

    @Override
    public String toString() {
      return JsonWriter.write(this);
    }
  }

  /** A string. */
  record Str(String value) implements Json {
    public Str {
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return JsonWriter.write(this);
    }
  }

  /** A number, kept as its text so that whole numbers of any size and doubles read back exactly. */
  record Num(String text) implements Json {
    public Num {
      new BigDecimal(text); // rejects what is not a number
    }

    /** The value as a long. @throws ArithmeticException when it is not a whole number in range */
    long longValue() {
      return new BigDecimal(text).longValueExact();
    }

    /** The value as a double. */
    double doubleValue() {
      return Double.parseDouble(text);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** {@code true} or {@code false}. */
  record Bool(boolean value) implements Json {
    @Override
    public String toString() {
      return Boolean.toString(value);
    }
  }

  /** {@code null}; use {@link Json#NULL}. */
  record Null() implements Json {
    @Override
    public String toString() {
      return "null";
    }
  }

  /** A string value. */
  static Json of(String value) {
    return new Str(value);
  }

  /** A whole number. */
  static Json of(long value) {
    return new Num(Long.toString(value));
  }

  /** A finite double, written so that it reads back to the same double. */
  static Json of(double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException("JSON has no " + value);
    }
    return new Num(Double.toString(value));
  }

  /** A duration as ISO-8601 text ({@code PT1.5S}), the form {@link Fields#duration} reads. */
  static Json of(Duration value) {
    return new Str(value.toString());
  }

  /** A boolean. */
  static Json of(boolean value) {
    return new Bool(value);
  }

  /** An array of strings. */
  static Json strings(List<String> values) {
    return new Arr(values.stream().map(Json::of).toList());
  }

  /** An object of string values. */
  static Json strings(Map<String, String> values) {
    Map<String, Json> fields = new LinkedHashMap<>();
    values.forEach((k, v) -> fields.put(k, of(v)));
    return new Obj(fields);
  }
}
