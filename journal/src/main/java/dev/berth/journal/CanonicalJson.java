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
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * The journal's JSON, on Jackson: canonical text out (no whitespace, object keys sorted by their
 * UTF-16 code units, strings escaped minimally, lone and paired surrogates as {@code \\uXXXX} so
 * that they survive UTF-8 storage) and strict JSON in (no duplicate keys, nothing after the value,
 * numbers exact). Equal trees always give equal text, which is what the spec's SHA-256 is taken
 * over; the text is byte for byte what Berth 0.1's own writer made.
 */
final class CanonicalJson {

  private static final JsonMapper MAPPER = JsonMapper.builder(factory())
      .enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
      .build();

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

  /** The canonical text of {@code value}. */
  static String write(JsonNode value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree could not be written: " + e.getOriginalMessage(), e);
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
