package dev.berth.client;

import dev.berth.core.model.PoolSpec;
import dev.berth.core.settings.InvalidValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A named pool of warm engines for the Java API, the form of a spec's {@code pools:} entry (see
 * docs/pools.md): {@code Pool.python("fast").size(2).setup("mymodel:warm")} runs Python calls,
 * {@code Pool.java("jvm").setup("com.example.Warm::load")} runs {@code BerthTask}s in warm JVMs. Use it
 * with {@link Berth#view(Pool)}, {@link Tasks#call} or {@link Tasks#java(String, Pool, Class)}. Setters check their value at once, by the rules
 * a spec's pool keys follow, and throw {@link IllegalArgumentException} naming the key.
 */
public final class Pool {

  private final String name;
  private final Map<String, Object> written;
  private final PoolSpec definition;

  private Pool(String name, Map<String, Object> written) {
    this.name = Objects.requireNonNull(name, "name");
    this.written = written;
    dev.berth.core.model.Names.check("pool", name);
    try {
      this.definition = PoolSpec.read(name, written);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException("pool " + name + ": " + TaskSettings.message(e), e);
    }
  }

  /** A pool of Python engines ({@code python3} unless {@link #interpreter} says otherwise), every key at its default. */
  public static Pool python(String name) {
    return new Pool(name, Map.of());
  }

  /** A pool of JVM engines running {@code BerthTask}s through Berth's task worker. */
  public static Pool java(String name) {
    return new Pool(name, Map.of("language", "java"));
  }

  private Pool with(String key, Object value) {
    Map<String, Object> next = new LinkedHashMap<>(written);
    next.put(key, value);
    return new Pool(name, next);
  }

  /** The interpreter of a Python pool's engines ({@code python}, e.g. {@code python3.11}). */
  public Pool interpreter(String program) {
    return with("python", program);
  }

  /** What each engine runs once before its first call: {@code module:function}, or for Java a class or {@code Class::method}. */
  public Pool setup(String setup) {
    return with("setup", setup);
  }

  /** The most engines per device ({@code size}); {@link #autoSize()} for as many as admission lets run. */
  public Pool size(int engines) {
    return with("size", engines);
  }

  /** As many engines per device as admission lets calls run at once ({@code size: auto}, the default). */
  public Pool autoSize() {
    return with("size", "auto");
  }

  /** The most calls sent to one engine and not yet answered ({@code hwm}). */
  public Pool hwm(int calls) {
    return with("hwm", calls);
  }

  /** One call at a time per engine while its calls are long, several queued while they are short ({@code hwm: auto}, the default). */
  public Pool autoHwm() {
    return with("hwm", "auto");
  }

  /** An engine leaves after this many calls ({@code recycle-after}). */
  public Pool recycleAfter(int calls) {
    return with("recycle-after", calls);
  }

  /** An engine whose resident memory after a call exceeds this leaves ({@code recycle-memory}, e.g. {@code 2GiB}). */
  public Pool recycleMemory(String size) {
    return with("recycle-memory", size);
  }

  /** Host memory each engine holds while it lives, beside its calls' reservations ({@code memory}, e.g. {@code 4GiB}). */
  public Pool memory(String size) {
    return with("memory", size);
  }

  /** GPU memory each engine holds on its device while it lives ({@code gpu-memory}, e.g. {@code 6GiB}). */
  public Pool gpuMemory(String size) {
    return with("gpu-memory", size);
  }

  /** How a call's engine is chosen ({@code scheme}): leastload, lru, plainrandom, weighted or twobin. */
  public Pool scheme(String scheme) {
    return with("scheme", scheme);
  }

  /** The pool's name. */
  public String name() {
    return name;
  }

  /** The pool as a spec would define it. */
  public PoolSpec definition() {
    return definition;
  }

  @Override
  public String toString() {
    return name + " (" + definition.language() + ": " + definition.text() + ")";
  }
}
