package dev.berth.journal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.NumericNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The journal's JSON: canonical text out (no whitespace, object keys sorted by their UTF-16 code
 * units, strings escaped minimally, lone and paired surrogates as {@code \\uxxxx} in lower case so
 * that they survive UTF-8 storage) and strict JSON in, on Jackson (no duplicate keys, nothing after
 * the value, numbers exact). Equal trees always give equal text, which is what the spec's SHA-256
 * is taken over; the text is byte for byte what Berth 0.1's own writer made.
 */
final class CanonicalJson {

  private static final JsonMapper MAPPER = JsonMapper.builder(factory())
      .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .build();

  /** Nesting deeper than this the mapper refuses to write, so such a tree is left to it. */
  private static final int MAX_DEPTH = MAPPER.getFactory().streamWriteConstraints().getMaxNestingDepth();

  /** A big decimal's scale beyond which the mapper refuses to write it plain (its generator's limit). */
  private static final int MAX_PLAIN_SCALE = 9999;

  /** Lower case, as the mapper's {@link JsonWriteFeature#WRITE_HEX_UPPER_CASE} is disabled. */
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private CanonicalJson() {}

  private static JsonFactory factory() {
    return new JsonFactoryBuilder()
        .characterEscapes(new SurrogateEscapes())
        .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
        .build();
  }

  /** A new, empty object. */
  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  /** An array of strings. */
  static ArrayNode strings(List<String> values) {
    ArrayNode array = MAPPER.createArrayNode();
    values.forEach(array::add);
    return array;
  }

  /** An object of string values. */
  static ObjectNode strings(Map<String, String> values) {
    ObjectNode object = object();
    values.forEach(object::put);
    return object;
  }

  /**
   * The canonical text of {@code value}. Written here rather than by the mapper because the journal
   * writes a row for every task event on the scheduler's thread, and for trees of a few fields the
   * mapper's machinery was most of that row's cost. The text is the mapper's, byte for byte; the
   * trees this writer does not know (binary, POJO, missing and raw nodes, numbers the mapper refuses,
   * nesting deeper than it allows) are left to the mapper, which writes or refuses them as before.
   */
  static String write(JsonNode value) {
    StringBuilder text = new StringBuilder(64);
    return append(text, value, 1) ? text.toString() : writeWithMapper(value);
  }

  /** The canonical text of {@code value} as the mapper writes it: what {@link #write} must equal. */
  static String writeWithMapper(JsonNode value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Appends {@code value}, whose containers are {@code depth} deep (the root's are 1 deep), or
   * returns false when it, or something in it, is left to the mapper.
   */
  private static boolean append(StringBuilder text, JsonNode value, int depth) {
    if (value instanceof ObjectNode object) {
      return depth <= MAX_DEPTH && appendObject(text, object, depth);
    } else if (value instanceof ArrayNode array) {
      return depth <= MAX_DEPTH && appendArray(text, array, depth);
    } else if (value instanceof TextNode) {
      appendString(text, value.textValue());
    } else if (value instanceof NumericNode) {
      return appendNumber(text, value);
    } else if (value instanceof BooleanNode) {
      text.append(value.booleanValue());
    } else if (value instanceof NullNode) {
      text.append("null");
    } else {
      return false;
    }
    return true;
  }

  private static boolean appendObject(StringBuilder text, ObjectNode object, int depth) {
    String[] keys = new String[object.size()];
    JsonNode[] values = new JsonNode[keys.length];
    int count = 0;
    for (Map.Entry<String, JsonNode> field : object.properties()) {
      insertSorted(keys, values, count++, field.getKey(), field.getValue());
    }
    text.append('{');
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        text.append(',');
      }
      appendString(text, keys[i]);
      text.append(':');
      if (!append(text, values[i], depth + 1)) {
        return false;
      }
    }
    text.append('}');
    return true;
  }

  /**
   * Inserts a field among the {@code count} sorted before it, by {@link String#compareTo}: the order
   * of UTF-16 code units, as the mapper sorts properties. An insertion sort, as objects are small.
   */
  private static void insertSorted(String[] keys, JsonNode[] values, int count, String key, JsonNode value) {
    int at = count;
    while (at > 0 && keys[at - 1].compareTo(key) > 0) {
      keys[at] = keys[at - 1];
      values[at] = values[at - 1];
      at--;
    }
    keys[at] = key;
    values[at] = value;
  }

  private static boolean appendArray(StringBuilder text, ArrayNode array, int depth) {
    text.append('[');
    for (int i = 0; i < array.size(); i++) {
      if (i > 0) {
        text.append(',');
      }
      if (!append(text, array.get(i), depth + 1)) {
        return false;
      }
    }
    text.append(']');
    return true;
  }

  /**
   * Appends a number as the mapper's generator does: integers in decimal, big decimals plain,
   * doubles and floats by {@link Double#toString} and {@link Float#toString} (the mapper's fast
   * writer is off), and non-finite ones quoted, as the mapper quotes non-numeric numbers.
   */
  private static boolean appendNumber(StringBuilder text, JsonNode number) {
    if (number instanceof IntNode || number instanceof ShortNode) {
      text.append(number.intValue());
    } else if (number instanceof LongNode) {
      text.append(number.longValue());
    } else if (number instanceof BigIntegerNode) {
      text.append(number.bigIntegerValue().toString());
    } else if (number instanceof DecimalNode) {
      BigDecimal decimal = number.decimalValue();
      if (decimal.scale() < -MAX_PLAIN_SCALE || decimal.scale() > MAX_PLAIN_SCALE) {
        return false; // the mapper refuses to write it plain, with its own message
      }
      text.append(decimal.toPlainString());
    } else if (number instanceof DoubleNode) {
      appendFloatingPoint(text, Double.toString(number.doubleValue()), Double.isFinite(number.doubleValue()));
    } else if (number instanceof FloatNode) {
      appendFloatingPoint(text, Float.toString(number.floatValue()), Float.isFinite(number.floatValue()));
    } else {
      return false;
    }
    return true;
  }

  private static void appendFloatingPoint(StringBuilder text, String digits, boolean finite) {
    if (finite) {
      text.append(digits);
    } else {
      appendString(text, digits);
    }
  }

  /**
   * Appends a quoted string, escaped as the mapper's generator escapes with {@link SurrogateEscapes}:
   * quote and backslash, control characters in their short form where JSON has one and else as
   * {@code \\u00xx}, surrogates as {@code \\uxxxx}; everything else, 0x7F and {@code /} included, as is.
   */
  private static void appendString(StringBuilder text, String s) {
    text.append('"');
    int plainFrom = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
        continue;
      }
      text.append(s, plainFrom, i);
      appendEscape(text, c);
      plainFrom = i + 1;
    }
    if (plainFrom == 0) {
      text.append(s); // most strings need no escape, and a whole string is copied faster than a part
    } else {
      text.append(s, plainFrom, s.length());
    }
    text.append('"');
  }

  private static void appendEscape(StringBuilder text, char c) {
    text.append('\\');
    switch (c) {
      case '"', '\\' -> text.append(c);
      case '\b' -> text.append('b');
      case '\t' -> text.append('t');
      case '\n' -> text.append('n');
      case '\f' -> text.append('f');
      case '\r' -> text.append('r');
      default -> text.append('u').append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
          .append(HEX[c & 0xf]);
    }
  }

  /**
   * Parses one JSON value.
   *
   * @throws IllegalArgumentException naming the problem and its position when the text is not JSON
   */
  static JsonNode parse(String text) {
    JsonNode value;
    try {
      value = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      long at = e.getLocation() == null ? -1 : e.getLocation().getCharOffset();
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage()
          + (at < 0 ? "" : " at character " + (at + 1)), e);
    }
    if (value == null || value.isMissingNode()) {
      throw new IllegalArgumentException("not JSON: no value at all");
    }
    return value;
  }

  /** Escapes UTF-16 surrogates, which the writer would otherwise pass through (or, alone, replace). */
  private static final class SurrogateEscapes extends CharacterEscapes {
    private final int[] ascii = standardAsciiEscapesForJSON();

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int c) {
      return Character.isSurrogate((char) c) ? new SerializedString(String.format("\\u%04x", c)) : null;
    }
  }
}
