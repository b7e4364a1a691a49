package dev.berth.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.Learned;
import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * {@link TaskEvent} to and from JSON, exactly: every field round-trips, instants keep their
 * nanoseconds. The {@code type} field says which event it is:
 *
 * <pre>
 * {"at":"2024-05-01T10:00:00.123456789Z","type":"released"}
 * {"at":"...","attempt":1,"pid":4242,"placement":{"device":"cpu","gpu-memory":0,"memory":1073741824,
 *  "milli-cpus":1000},"two-stage":false,"type":"launched"}
 * {"accounting":{"elapsed-ms":1000,"end":"...","exit-code":"0:0","job-id":"23_1","nodes":"node1",
 *  "start":"...","state":"COMPLETED","submit":"..."},"at":"...","attempt":1,"type":"accounted"}
 * {"at":"...","target":"LOADING","type":"staged"}
 * {"at":"...","placement":{...},"train":2,"type":"trained"}
 * {"at":"...","message":"CUDA out of memory","outcome":"GPU_OOM","stage":"TRAIN","type":"reported"}
 * {"at":"...","exit-code":1,"message":"exit code 1","outcome":"FAILED","target":"READY","type":"ended"}
 * {"at":"...","reason":"cancelled by the user","target":"CANCELLED","type":"settled"}
 * {"at":"...","reason":"berth retry","type":"reopened"}
 * </pre>
 *
 * {@code exit-code} and {@code message} are {@code null} when absent.
 */
public final class EventCodec {

  private EventCodec() {}

  /** The event's canonical JSON text. */
  public static String encode(TaskEvent event) {
    return CanonicalJson.write(toJson(event));
  }

  /**
   * The event written by {@link #encode}.
   *
   * @throws IllegalArgumentException naming the field when the text is not such an event
   */
  public static TaskEvent decode(String json) {
    return fromJson(CanonicalJson.parse(json));
  }

  /**
   * The {@code type} discriminator of an event: {@code released}, {@code launched}, {@code started},
   * {@code submitted}, {@code accounted}, {@code staged}, {@code trained}, {@code reported}, {@code ended}, {@code settled} or
   * {@code reopened}.
   *
   * @throws IllegalArgumentException for an event type this codec does not know
   */
  public static String type(TaskEvent event) {
    if (event instanceof TaskEvent.Released) {
      return "released";
    } else if (event instanceof TaskEvent.Launched) {
      return "launched";
    } else if (event instanceof TaskEvent.Started) {
      return "started";
    } else if (event instanceof TaskEvent.Submitted) {
      return "submitted";
    } else if (event instanceof TaskEvent.Accounted) {
      return "accounted";
    } else if (event instanceof TaskEvent.Staged) {
      return "staged";
    } else if (event instanceof TaskEvent.Trained) {
      return "trained";
    } else if (event instanceof TaskEvent.Reported) {
      return "reported";
    } else if (event instanceof TaskEvent.Ended) {
      return "ended";
    } else if (event instanceof TaskEvent.Settled) {
      return "settled";
    } else if (event instanceof TaskEvent.Reopened) {
      return "reopened";
    }
    throw new IllegalArgumentException("the journal cannot write a " + event.getClass().getSimpleName() + " event");
  }

  static ObjectNode toJson(TaskEvent event) {
    ObjectNode f = fields(event);
    f.put("type", type(event));
    f.put("at", event.at().toString());
    return f;
  }

  /**
   * The event's fields but its {@code type} and {@code at}, which a row of the event table keeps in
   * columns of its own: so a row is written without formatting an instant only to drop it.
   */
  static ObjectNode fields(TaskEvent event) {
    ObjectNode f = CanonicalJson.object();
    if (event instanceof TaskEvent.Launched l) {
      f.put("attempt", l.attempt());
      f.set("placement", placement(l.placement()));
      f.put("pid", l.pid());
      f.put("two-stage", l.twoStage());
      if (!l.learned().isEmpty()) {
        l.learned().forEach(n -> f.withArray("learned").add(learned(n)));
      }
    } else if (event instanceof TaskEvent.Started s) {
      f.put("attempt", s.attempt());
      f.put("pid", s.pid());
    } else if (event instanceof TaskEvent.Submitted s) {
      f.put("attempt", s.attempt());
      f.put("cluster-id", s.clusterId());
    } else if (event instanceof TaskEvent.Accounted a) {
      f.put("attempt", a.attempt());
      f.set("accounting", accounting(a.accounting()));
    } else if (event instanceof TaskEvent.Staged s) {
      f.put("target", s.target().name());
    } else if (event instanceof TaskEvent.Trained t) {
      f.put("train", t.train());
      f.set("placement", placement(t.placement()));
    } else if (event instanceof TaskEvent.Reported r) {
      f.put("outcome", r.outcome().name());
      f.put("stage", r.stage());
      f.put("message", r.message());
    } else if (event instanceof TaskEvent.Ended e) {
      f.put("outcome", e.outcome().name());
      f.put("exit-code", e.exitCode());
      f.put("message", e.message());
      f.put("target", e.target().name());
      if (e.usage().isKnown()) {
        f.set("usage", usage(e.usage()));
      }
    } else if (event instanceof TaskEvent.Settled s) {
      f.put("target", s.target().name());
      f.put("reason", s.reason());
    } else if (event instanceof TaskEvent.Reopened o) {
      f.put("reason", o.reason());
    }
    return f;
  }

  static TaskEvent fromJson(JsonNode json) {
    return fromJson(json, null);
  }

  /**
   * The event of {@code json}, at the instant {@code given} when there is one (a row of the event table
   * keeps it in a column of its own, so it is not formatted only to be parsed again), else at its text's.
   */
  static TaskEvent fromJson(JsonNode json, Instant given) {
    Fields f = Fields.of(json, "");
    String type = f.string("type");
    Instant at = given != null ? given : f.instant("at");
    TaskEvent event = switch (type) {
      case "released" -> new TaskEvent.Released(at);
      case "launched" -> new TaskEvent.Launched(
          at, f.intValue("attempt"), placement(f.object("placement")), f.longValue("pid"),
          f.bool("two-stage"), f.ifGiven("learned", k -> learned(f, k)).orElse(List.of()));
      case "started" -> new TaskEvent.Started(at, f.intValue("attempt"), f.longValue("pid"));
      case "submitted" -> new TaskEvent.Submitted(at, f.intValue("attempt"), f.string("cluster-id"));
      case "accounted" -> new TaskEvent.Accounted(at, f.intValue("attempt"), accounting(f.object("accounting")));
      case "staged" -> new TaskEvent.Staged(at, target(f));
      case "trained" -> new TaskEvent.Trained(at, f.intValue("train"), placement(f.object("placement")));
      case "reported" -> new TaskEvent.Reported(
          at, f.enumValue("outcome", Outcome.class), f.string("stage"), f.string("message"));
      case "ended" -> new TaskEvent.Ended(
          at, f.enumValue("outcome", Outcome.class),
          f.present("exit-code") ? f.intValue("exit-code") : null, f.stringOrNull("message"),
          target(f), f.has("usage") ? usage(Fields.of(f.get("usage"), f.path("usage"))) : MeasuredUsage.NONE);
      case "settled" -> new TaskEvent.Settled(
          at, target(f), f.string("reason"));
      case "reopened" -> new TaskEvent.Reopened(at, f.string("reason"));
      default -> throw f.wrong("type",
          "released, launched, started, submitted, accounted, staged, trained, reported, ended, settled or reopened");
    };
    f.done();
    return event;
  }

  /** An attempt's measured usage; only the figures that were measured are written. */
  private static ObjectNode usage(MeasuredUsage usage) {
    ObjectNode u = CanonicalJson.object();
    usage.peakHostMemoryBytes().ifPresent(v -> u.put("peak-host-memory", v));
    usage.cpuSeconds().ifPresent(v -> u.put("cpu-seconds", v));
    usage.peakGpuMemoryBytes().ifPresent(v -> u.put("peak-gpu-memory", v));
    u.put("exact", usage.exact());
    return u;
  }

  private static MeasuredUsage usage(Fields u) {
    MeasuredUsage usage = new MeasuredUsage(
        u.has("peak-host-memory") ? OptionalLong.of(u.longValue("peak-host-memory")) : OptionalLong.empty(),
        u.has("cpu-seconds")
            ? OptionalDouble.of(u.decimal("cpu-seconds", "a number of seconds").doubleValue())
            : OptionalDouble.empty(),
        u.has("peak-gpu-memory") ? OptionalLong.of(u.longValue("peak-gpu-memory")) : OptionalLong.empty(),
        u.bool("exact"));
    u.done();
    return usage;
  }

  /** A cluster's accounting; the times and the run time only when the cluster recorded them. */
  private static ObjectNode accounting(ClusterAccounting a) {
    ObjectNode u = CanonicalJson.object();
    u.put("job-id", a.jobId());
    u.put("state", a.state());
    a.submittedAt().ifPresent(t -> u.put("submit", t.toString()));
    a.startedAt().ifPresent(t -> u.put("start", t.toString()));
    a.endedAt().ifPresent(t -> u.put("end", t.toString()));
    a.elapsed().ifPresent(d -> u.put("elapsed-ms", d.toMillis()));
    u.put("nodes", a.nodes());
    u.put("exit-code", a.exitCode());
    return u;
  }

  private static ClusterAccounting accounting(Fields u) {
    ClusterAccounting a = new ClusterAccounting(u.string("job-id"), u.string("state"),
        u.ifGiven("submit", u::instant), u.ifGiven("start", u::instant), u.ifGiven("end", u::instant),
        u.ifGiven("elapsed-ms", k -> Duration.ofMillis(u.longValue(k))), u.string("nodes"), u.string("exit-code"));
    u.done();
    return a;
  }

  /** The target state, also under the names an older Berth wrote (see {@link TaskState#named}). */
  private static TaskState target(Fields f) {
    String name = f.string("target");
    try {
      return TaskState.named(name);
    } catch (IllegalArgumentException e) {
      throw f.wrong("target", "one of " + List.of(TaskState.values()));
    }
  }

  /** A learned reservation, written only on launches that have one (older journals have none). */
  private static ObjectNode learned(Learned n) {
    ObjectNode f = CanonicalJson.object();
    f.put("resource", n.resource());
    f.put("bytes", n.bytes());
    f.put("declared", n.declaredBytes());
    f.put("from-tasks", n.fromTasks());
    f.put("basis", n.basis());
    return f;
  }

  private static List<Learned> learned(Fields f, String key) {
    List<Learned> notes = new java.util.ArrayList<>();
    List<JsonNode> items = f.array(key);
    for (int i = 0; i < items.size(); i++) {
      Fields n = Fields.of(items.get(i), f.path(key) + "[" + i + "]");
      notes.add(new Learned(n.string("resource"), n.longValue("bytes"), n.longValue("declared"),
          n.intValue("from-tasks"), n.string("basis")));
      n.done();
    }
    return notes;
  }

  private static ObjectNode placement(Placement p) {
    ObjectNode f = CanonicalJson.object();
    f.put("device", p.device());
    f.put("memory", p.memoryBytes());
    f.put("milli-cpus", p.milliCpus());
    f.put("gpu-memory", p.gpuMemoryBytes());
    return f;
  }

  private static Placement placement(Fields f) {
    Placement p = new Placement(f.string("device"), f.longValue("memory"), f.longValue("milli-cpus"),
        f.longValue("gpu-memory"));
    f.done();
    return p;
  }
}
