package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A key's typed value as JSON and back, for every table: the settings of a run and the keys a task
 * carries. Numbers, true or false, lists and mappings stay what they are; anything else is its text
 * (ISO-8601 durations, choices by name). Reading gives the plain values the keys' own parsers take.
 */
final class StoredValues {

  private StoredValues() {}

  /** {@code value} as JSON: null for none. */
  static JsonNode json(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value == null) {
      return nodes.nullNode();
    }
    if (value instanceof Optional<?> o) {
      return json(o.orElse(null));
    }
    if (value instanceof Integer i) {
      return nodes.numberNode(i);
    }
    if (value instanceof Long l) {
      return nodes.numberNode(l);
    }
    if (value instanceof Double d) {
      return nodes.numberNode(d);
    }
    if (value instanceof BigDecimal d) {
      return nodes.numberNode(d);
    }
    if (value instanceof Boolean b) {
      return nodes.booleanNode(b);
    }
    if (value instanceof List<?> list) {
      ArrayNode array = nodes.arrayNode(list.size());
      list.forEach(item -> array.add(item instanceof Number ? json(item) : nodes.textNode(String.valueOf(item))));
      return array;
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = CanonicalJson.object();
      map.forEach((k, v) -> object.set(String.valueOf(k), json(v)));
      return object;
    }
    return nodes.textNode(String.valueOf(value));
  }

  /** A stored value as the keys' parsers take it. */
  static Object plain(JsonNode value) {
    if (value.isIntegralNumber()) {
      return value.longValue();
    }
    if (value.isNumber()) {
      return value.doubleValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isArray()) {
      List<Object> items = new ArrayList<>();
      value.forEach(item -> items.add(plain(item)));
      return items;
    }
    if (value.isObject()) {
      Map<String, Object> fields = new LinkedHashMap<>();
      value.fields().forEachRemaining(e -> fields.put(e.getKey(), plain(e.getValue())));
      return fields;
    }
    return value.asText();
  }
}
