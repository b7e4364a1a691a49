package dev.berth.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.InvalidValue;
import dev.berth.protocol.pool.EngineHelper;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * A task that calls a Python function: {@code call: package.module:function}, with the matrix values
 * and {@code params:} as keyword arguments, in a warm engine of {@code pool:} or, without one, in a
 * process of its own. Either way its command is the one that runs the call as a process (through
 * Berth's {@link EngineHelper}); a pool's engines run the same call without the process.
 *
 * @param function the function, possibly with placeholders
 * @param pool the pool it runs in, or null for a process per call
 * @param params the keyword arguments besides the matrix values, as written
 * @param field where the task is written
 */
record CallTask(Template function, PoolSpec pool, YamlNode.Mapping params, Field field) {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** The task's call, or null when it has no {@code call} key. */
  static CallTask parse(YamlNode.Mapping map, Field field, Pools pools) throws SpecException {
    YamlNode call = map.get(TaskKeys.CALL.key());
    if (call == null) {
      if (map.get(TaskKeys.PARAMS.key()) != null) {
        throw field.key(TaskKeys.PARAMS.key()).problem("only applies to a call task; add call: package.module:function");
      }
      if (map.get(TaskKeys.POOL.key()) != null && map.get(TaskKeys.JAVA.key()) == null) {
        throw field.key(TaskKeys.POOL.key()).problem("only applies to a call or java task; add call:"
            + " package.module:function");
      }
      return null;
    }
    for (String key : List.of(TaskKeys.COMMAND.key(), TaskKeys.JAVA.key())) {
      if (map.get(key) != null) {
        throw field.key(key).problem("a task has one of command, java and call, not several");
      }
    }
    Field name = field.key(TaskKeys.CALL.key());
    Template function = new Template(name.read(TaskKeys.CALL::parse, call), name);
    YamlNode poolNode = map.get(TaskKeys.POOL.key());
    PoolSpec pool = poolNode == null ? null : pools.forTask(poolNode, field, PoolSpec.Language.PYTHON);
    YamlNode paramsNode = map.get(TaskKeys.PARAMS.key());
    YamlNode.Mapping params = paramsNode == null ? new YamlNode.Mapping(Map.of())
        : Keys.mapping(paramsNode, field.key(TaskKeys.PARAMS.key()), "names to values, e.g. {epochs: 3}");
    return new CallTask(function, pool, params, field);
  }

  /** The argument vector that runs the call once as a process, for these placeholder values. */
  List<String> command(Map<String, String> values, Map<String, String> matrixValues) throws SpecException {
    String python = pool == null ? "python3" : pool.python();
    return EngineHelper.callCommand(python, function.fill(values), kwargs(values, matrixValues).toString(),
        List.of(values.getOrDefault(BuiltInPlaceholders.SPEC_DIR, ".")));
  }

  /** The keyword arguments: the matrix values (numbers and true/false as such), then params. */
  private ObjectNode kwargs(Map<String, String> values, Map<String, String> matrixValues) throws SpecException {
    ObjectNode kwargs = JSON.objectNode();
    matrixValues.forEach((k, v) -> kwargs.set(k, typed(v)));
    for (Map.Entry<String, YamlNode> e : params.entries().entrySet()) {
      try {
        kwargs.set(e.getKey(), json(e.getValue(), values));
      } catch (InvalidValue problem) {
        throw field.key(TaskKeys.PARAMS.key()).key(e.getKey()).problem(problem);
      }
    }
    return kwargs;
  }

  private static JsonNode typed(String text) {
    Object value = EngineHelper.typed(text);
    if (value instanceof BigDecimal number) {
      return JSON.numberNode(number);
    }
    return value instanceof Boolean b ? JSON.booleanNode(b) : JSON.textNode(text);
  }

  private JsonNode json(YamlNode node, Map<String, String> values) {
    if (node instanceof YamlNode.Mapping m) {
      ObjectNode object = JSON.objectNode();
      for (Map.Entry<String, YamlNode> e : m.entries().entrySet()) {
        object.set(e.getKey(), json(e.getValue(), values));
      }
      return object;
    }
    if (node instanceof YamlNode.Sequence s) {
      ArrayNode array = JSON.arrayNode();
      for (YamlNode item : s.items()) {
        array.add(json(item, values));
      }
      return array;
    }
    YamlNode.Scalar scalar = (YamlNode.Scalar) node;
    return switch (scalar.kind()) {
      case NULL -> JSON.nullNode();
      case BOOLEAN -> JSON.booleanNode(Boolean.parseBoolean(scalar.text().toLowerCase(java.util.Locale.ROOT)));
      case INTEGER, DECIMAL -> scalar.number() == null ? JSON.textNode(scalar.text()) : JSON.numberNode(scalar.number());
      case STRING -> JSON.textNode(Template.filler(values).apply(scalar.text()));
    };
  }
}
