package dev.berth.journal;

import dev.berth.core.deps.Dependency;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.Resources;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
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

  static Json toJson(TaskSpec t) {
    Map<String, Json> f = new LinkedHashMap<>();
    f.put("id", Json.of(t.id().value()));
    f.put("command", Json.strings(t.command()));
    f.put("env", Json.strings(t.env()));
    f.put("memory", Json.of(t.resources().memoryBytes()));
    f.put("cpus", new Json.Num(BigDecimal.valueOf(t.resources().milliCpus(), 3).stripTrailingZeros().toPlainString()));
    f.put("priority", Json.of(t.priority()));
    f.put("params", Json.strings(t.params()));
    f.put("after", t.after().map(TaskCodec::dependency).orElse(Json.NULL));
    f.put("follow", t.follow().map(TaskCodec::dependency).orElse(Json.NULL));
    RetryPolicy retry = t.retry();
    f.put("retries", Json.of(retry.retries()));
    f.put("retry-delay", Json.of(retry.delay()));
    f.put("retry-backoff", Json.of(retry.backoff()));
    f.put("retry-delay-max", Json.of(retry.maxDelay()));
    f.put("queue-timeout", t.queueTimeout().map(Json::of).orElse(Json.NULL));
    f.put("timeout", t.timeout().map(Json::of).orElse(Json.NULL));
    GpuRequest gpu = t.gpu();
    f.put("gpu-memory", Json.of(gpu.memoryBytes()));
    f.put("gpus", Json.of(gpu.wholeDevices()));
    f.put("device", gpu.pinned().isPresent() ? Json.of("cuda:" + gpu.pinned().getAsInt()) : Json.NULL);
    f.put("targets", new Json.Arr(gpu.targets().stream().map(i -> Json.of(i.longValue())).toList()));
    f.put("placement", gpu.placement().map(Json::of).orElse(Json.NULL));
    f.put("blacklist", Json.of(gpu.blacklist()));
    f.put("two-stage", Json.of(t.twoStage()));
    return new Json.Obj(f);
  }

  static TaskSpec fromJson(Fields f, String group) {
    TaskId id = TaskId.of(f.string("id"));
    long milliCpus;
    try {
      milliCpus = new BigDecimal(f.get("cpus").toString()).movePointRight(3).longValueExact();
    } catch (ArithmeticException | NumberFormatException e) {
      throw f.wrong("cpus", "a number of cores with at most three decimal places");
    }
    RetryPolicy retry = new RetryPolicy(
        f.intValue("retries"), f.duration("retry-delay"), f.doubleValue("retry-backoff"), f.duration("retry-delay-max"));
    GpuRequest gpu = new GpuRequest(
        f.longValue("gpu-memory"), f.intValue("gpus"), device(f), f.ints("targets"),
        f.optional("placement", f::string), f.bool("blacklist"));
    TaskSpec task = new TaskSpec(
        id, group, f.strings("command"), f.stringMap("env"), new Resources(f.longValue("memory"), milliCpus),
        f.intValue("priority"), f.stringMap("params"), f.optional("after", k -> dependency(f.object(k))),
        f.optional("follow", k -> dependency(f.object(k))), retry, f.optional("queue-timeout", f::duration),
        f.optional("timeout", f::duration), gpu, f.bool("two-stage"));
    f.done();
    return task;
  }

  private static Json dependency(Dependency d) {
    Map<String, Json> f = new LinkedHashMap<>();
    f.put("tasks", Json.strings(d.tasks().stream().map(TaskId::value).toList()));
    f.put("all", Json.of(d.all()));
    f.put("success", Json.of(d.success()));
    f.put("failure", Json.of(d.failure()));
    return new Json.Obj(f);
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
