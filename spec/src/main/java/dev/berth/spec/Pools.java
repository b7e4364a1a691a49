package dev.berth.spec;

import dev.berth.core.pool.EngineScheme;
import dev.berth.core.pool.PoolSpec;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The spec's top-level {@code pools:}: named pools of warm Python engines that call tasks run in
 * (docs/pools.md). Each pool's settings travel with its call tasks, so nothing here is stored apart.
 *
 * @param byName each pool and the interpreter its engines run, by name, in written order
 */
record Pools(Map<String, Pool> byName) {

  /** One pool: its settings and the Python interpreter that runs its engines. */
  record Pool(PoolSpec spec, String python) {}

  /** A spec without pools. */
  static final Pools NONE = new Pools(Map.of());

  /** The keys a pool takes, in documentation order. */
  static final List<String> KEYS = List.of("python", "setup", "size", "hwm", "recycle-after", "recycle-memory", "scheme");

  /** The pool called {@code name}, if defined. */
  Optional<Pool> get(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** Reads {@code pools:}, absent or null meaning none. */
  static Pools parse(YamlNode node, Field field) throws SpecException {
    if (node == null || node instanceof YamlNode.Scalar s && s.isNull()) {
      return NONE;
    }
    YamlNode.Mapping map = Keys.mapping(node, field, "pool names, each with keys such as size and setup");
    Map<String, Pool> pools = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> e : map.entries().entrySet()) {
      Field at = field.key(e.getKey());
      at.read(RunSpecReader.NAME, new YamlNode.Scalar(YamlNode.Kind.STRING, e.getKey(), null));
      pools.put(e.getKey(), pool(e.getKey(), e.getValue(), at));
    }
    return new Pools(Map.copyOf(pools));
  }

  private static Pool pool(String name, YamlNode node, Field field) throws SpecException {
    if (node instanceof YamlNode.Scalar s && s.isNull()) {
      return new Pool(PoolSpec.named(name), "python3");
    }
    YamlNode.Mapping map = Keys.mapping(node, field, "pool keys such as size: 2 and setup: mymodule:load");
    Keys.requireKnown(map, field, KEYS, Map.of("language", "only Python pools exist yet; leave language out"));
    String python = text(map, "python", field).orElse("python3");
    String setup = text(map, "setup", field).orElse("");
    if (!setup.isEmpty() && !setup.matches("[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*")) {
      throw field.key("setup").problem("'" + setup + "' is not a function; write package.module:function");
    }
    int size = 0;
    YamlNode sizeNode = map.get("size");
    if (sizeNode != null && !"auto".equals(sizeNode.asWritten())) {
      size = field.key("size").read(v -> {
        try {
          return Parsers.wholeNumber(1).parse(v);
        } catch (InvalidValue e) {
          throw new InvalidValue("must be auto or a whole number >= 1, not " + Parsers.describe(v));
        }
      }, sizeNode);
    }
    int hwm = whole(map, "hwm", field, 1);
    int recycleAfter = whole(map, "recycle-after", field, 0);
    long recycleMemory = map.get("recycle-memory") == null ? 0
        : field.key("recycle-memory").read(Parsers.MEMORY, map.get("recycle-memory"));
    EngineScheme scheme = map.get("scheme") == null ? EngineScheme.LEASTLOAD
        : field.key("scheme").read(Parsers.oneOf(EngineScheme.values()), map.get("scheme"));
    if (hwm < 1) {
      throw field.key("hwm").problem("must be a whole number >= 1");
    }
    return new Pool(new PoolSpec(name, setup, size, hwm, recycleAfter, recycleMemory, scheme), python);
  }

  private static Optional<String> text(YamlNode.Mapping map, String key, Field field) throws SpecException {
    YamlNode node = map.get(key);
    return node == null ? Optional.empty() : Optional.of(field.key(key).read(Parsers.TEXT, node));
  }

  private static int whole(YamlNode.Mapping map, String key, Field field, int otherwise) throws SpecException {
    YamlNode node = map.get(key);
    return node == null ? otherwise : field.key(key).read(Parsers.wholeNumber(0), node);
  }
}
