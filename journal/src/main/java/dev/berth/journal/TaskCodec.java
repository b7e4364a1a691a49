package dev.berth.journal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.Resources;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.settings.Parsers;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link TaskSpec} to and from JSON with the spec file's key names where there is one. The group is
 * not written: it is the enclosing group's name. Memory is in bytes, {@code cpus} is an exact
 * decimal with at most three places, durations are ISO-8601, absent optionals are {@code null}.
 */
final class TaskCodec {

  private static final Pattern DEVICE = Pattern.compile("cuda:([0-9]+)");

  private TaskCodec() {}

  static ObjectNode toJson(TaskSpec t) {
    ObjectNode f = CanonicalJson.object();
    f.put("id", t.id().value());
    f.set("command", CanonicalJson.strings(t.command()));
    f.set("env", CanonicalJson.strings(t.env()));
    f.put("memory", t.resources().memoryBytes());
    f.put("cpus", BigDecimal.valueOf(t.resources().milliCpus(), 3).stripTrailingZeros());
    f.put("priority", t.priority());
    f.set("params", CanonicalJson.strings(t.params()));
    f.set("after", t.after().map(TaskCodec::dependency).orElse(null));
    f.set("follow", t.follow().map(TaskCodec::dependency).orElse(null));
    RetryPolicy retry = t.retry();
    f.put("retries", retry.retries());
    f.put("retry-delay", retry.delay().toString());
    f.put("retry-backoff", retry.backoff());
    f.put("retry-delay-max", retry.maxDelay().toString());
    f.put("queue-timeout", t.queueTimeout().map(Duration::toString).orElse(null));
    f.put("timeout", t.timeout().map(Duration::toString).orElse(null));
    GpuRequest gpu = t.gpu();
    f.put("gpu-memory", gpu.memoryBytes());
    f.put("gpus", gpu.wholeDevices());
    f.put("device", gpu.pinned().isPresent() ? "cuda:" + gpu.pinned().getAsInt() : null);
    gpu.targets().forEach(f.putArray("targets")::add);
    f.put("placement", gpu.placement().map(PlacementPolicyName::label).orElse(null));
    f.put("blacklist", gpu.blacklist());
    f.put("two-stage", t.twoStage());
    if (!t.template().equals(t.id().value())) {
      f.put("template", t.template());
    }
    t.enforceMemory().ifPresent(limit -> f.put("enforce-memory", limit)); // absent: the config decides
    return f;
  }

  /**
   * The task written by {@link #toJson}. Values read through {@link Fields#same} are handed on from
   * the task before when {@code f} reads {@link Fields#after} it and the node is the same.
   */
  static TaskSpec fromJson(Fields f, String group) {
    TaskId id = TaskId.of(f.string("id"));
    long milliCpus = f.same("cpus", k -> milliCpus(f, k));
    RetryPolicy retry = new RetryPolicy(f.intValue("retries"), f.same("retry-delay", f::duration),
        f.doubleValue("retry-backoff"), f.same("retry-delay-max", f::duration));
    GpuRequest gpu = new GpuRequest(
        f.longValue("gpu-memory"), f.intValue("gpus"), device(f), f.same("targets", f::ints),
        f.same("placement", k -> f.optional(k, p -> f.parsed(p, Parsers.PLACEMENT))), f.bool("blacklist"));
    TaskSpec task = new TaskSpec(
        id, group, f.same("command", f::strings), f.same("env", f::stringMap),
        new Resources(f.longValue("memory"), milliCpus), f.intValue("priority"), f.same("params", f::stringMap),
        f.same("after", k -> f.optional(k, d -> dependency(f.object(d)))),
        f.same("follow", k -> f.optional(k, d -> dependency(f.object(d)))), retry,
        f.same("queue-timeout", k -> f.optional(k, f::duration)), f.same("timeout", k -> f.optional(k, f::duration)),
        gpu, f.bool("two-stage"),
        f.ifGiven("template", f::string).orElse(id.value()), // a Berth before templates wrote none
        f.ifGiven("enforce-memory", f::bool));
    f.done();
    return task;
  }

  private static long milliCpus(Fields f, String key) {
    String cores = "a number of cores with at most three decimal places";
    try {
      return f.decimal(key, cores).movePointRight(3).longValueExact();
    } catch (ArithmeticException e) {
      throw f.wrong(key, cores);
    }
  }

  private static ObjectNode dependency(Dependency d) {
    ObjectNode f = CanonicalJson.object();
    f.set("tasks", CanonicalJson.strings(d.tasks().stream().map(TaskId::value).toList()));
    f.put("all", d.all());
    f.put("success", d.success());
    f.put("failure", d.failure());
    return f;
  }

  private static Dependency dependency(Fields f) {
    Dependency d = new Dependency(
        f.strings("tasks").stream().map(TaskId::of).toList(), f.bool("all"), f.bool("success"), f.bool("failure"));
    f.done();
    return d;
  }

  private static OptionalInt device(Fields f) {
    if (!f.present("device")) {
      return OptionalInt.empty();
    }
    Matcher m = DEVICE.matcher(f.string("device"));
    if (!m.matches()) {
      throw f.wrong("device", "null or cuda:N");
    }
    try {
      return OptionalInt.of(Integer.parseInt(m.group(1)));
    } catch (NumberFormatException e) {
      throw f.wrong("device", "null or cuda:N");
    }
  }
}
