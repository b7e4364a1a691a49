package dev.berth.spec;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * fedflow config keys that this version of Berth does not implement, and Berth's own retired ones.
 * They are rejected, not ignored: a user who sets one expects it to have an effect.
 */
final class UnsupportedConfig {

  private record Rule(Predicate<String> matches, String hint) {}

  private static final List<Rule> RULES = List.of(
      new Rule(section("gpu-priority"), "; set scheduler.placement: pci, total-mem or remain-mem"
          + " (with -reverse for the reverse order) instead"),
      new Rule(section("task"), ""),
      new Rule(section("scheduler.auto-adjust"), ""),
      new Rule(section("debug"), ""),
      new Rule(section("workdir"), "; set 'workdir' at the top level of the spec instead"),
      new Rule(section("scheduler.learn-usage"), " any more; every placement policy learns GPU memory by one rule:"
          + " set scheduler.learn-gpu-memory: on or off instead"));

  private UnsupportedConfig() {}

  /** Why {@code key} (dotted) is refused, or empty when it is not one of fedflow's unsupported keys. */
  static Optional<String> reason(String key) {
    return RULES.stream()
        .filter(r -> r.matches().test(key))
        .findFirst()
        .map(r -> "is not supported by this version of Berth" + r.hint());
  }

  private static Predicate<String> section(String name) {
    return key -> key.equals(name) || key.startsWith(name + ".");
  }
}
