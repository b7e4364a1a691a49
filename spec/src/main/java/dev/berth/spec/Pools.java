package dev.berth.spec;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.PoolKeys;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The spec's top-level {@code pools:}: named pools of warm engines that call tasks (Python) or Java
 * tasks run in (docs/pools.md). Each pool's settings travel with its tasks (their {@code pool} key), so
 * nothing here is stored apart.
 *
 * @param byName each pool by name, in written order
 */
record Pools(Map<String, PoolSpec> byName) {

  /** A spec without pools. */
  static final Pools NONE = new Pools(Map.of());

  /** The pool called {@code name}, if defined. */
  Optional<PoolSpec> get(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** Reads {@code pools:}, absent or null meaning none. */
  static Pools parse(YamlNode node, Field field) throws SpecException {
    if (node == null || node instanceof YamlNode.Scalar s && s.isNull()) {
      return NONE;
    }
    YamlNode.Mapping map = Keys.mapping(node, field, "pool names, each with keys such as size and setup");
    Map<String, PoolSpec> pools = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      Field at = field.key(e.getKey());
      at.read(RunSpecReader.NAME, new YamlNode.Scalar(YamlNode.Kind.STRING, e.getKey(), null));
      pools.put(e.getKey(), pool(e.getKey(), e.getValue(), at));
    }
    return new Pools(Map.copyOf(pools));
  }

  private static PoolSpec pool(String name, YamlNode node, Field field) throws SpecException {
    if (node instanceof YamlNode.Scalar s && s.isNull()) {
      return PoolSpec.read(name, Map.of());
    }
    YamlNode.Mapping map = Keys.mapping(node, field, "pool keys such as size: 2 and setup: mymodule:load");
    Keys.requireKnown(map, field, PoolKeys.TABLE.keys().stream().map(ConfigKey::key).toList(), Map.of());
    try {
      return PoolSpec.read(name, map.asWritten());
    } catch (InvalidValue e) {
      throw field.problem(e);
    }
  }

  /**
   * The pool a task's {@code pool:} names, which must run {@code language}: an error at that field
   * when there is no such pool or it runs the other language.
   */
  PoolSpec forTask(YamlNode poolNode, Field taskField, PoolSpec.Language language) throws SpecException {
    Field poolField = taskField.key(TaskKeys.POOL.key());
    String poolName = poolField.read(Parsers.TEXT::parse, poolNode); // a name; its settings are pools:'s
    PoolSpec pool = get(poolName).orElseThrow(() -> poolField.problem("'" + poolName + "' is not a pool; "
        + (byName.isEmpty() ? "define it under the top-level pools:" : "pools: defines "
            + String.join(", ", new TreeMap<>(byName).keySet()))));
    if (pool.language() != language) {
      throw poolField.problem("'" + poolName + "' is a " + pool.language() + " pool; a "
          + (language == PoolSpec.Language.JAVA ? "java: task needs a pool with language: java"
              : "call: task needs a Python pool (leave its language out)"));
    }
    return pool;
  }
}
