package dev.berth.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.AttemptStage;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.report.Totals;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.control.RunLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where a run stands as JSON, read from its journal and its waiting file (safe while it runs): the
 * one shape behind {@code berth status --json} and the dashboard's API. Per group counts in the
 * report's words, the revisions of the run's spec (when it changed), and per task its status,
 * device, attempt, run time and why it waits.
 */
public final class StatusJson {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a front door adds to the shape, e.g. the Slurm jobs of a cluster run. */
  public interface Extras {
    /** Adds to the run's object, after its groups. */
    void run(ObjectNode root);

    /** Adds to one task's object. */
    void task(TaskRecord record, ObjectNode node);
  }

  /** Nothing added. */
  public static final Extras NONE = new Extras() {
    @Override
    public void run(ObjectNode root) {}

    @Override
    public void task(TaskRecord record, ObjectNode node) {}
  };

  private StatusJson() {}

  /** The status of the run whose journal {@code view} read, as of {@code now}. */
  public static ObjectNode of(JournalView view, Instant now, Extras extras) throws IOException {
    Path dir = view.layout().runDir();
    Optional<String> holder = RunLock.holder(dir);
    JsonNode waiting = readWaiting(dir);
    RunReport report = view.report(now);
    ObjectNode root = JSON.createObjectNode();
    root.put("run", report.run());
    root.put("live", holder.isPresent());
    holder.ifPresent(h -> root.put("holder", h));
    root.put("status", holder.isPresent() && view.replay().run().status().isEmpty() ? "RUNNING" : report.status().name());
    ArrayNode groups = root.putArray("groups");
    for (GroupReport g : report.groups()) {
      Totals t = g.totals();
      groups.addObject().put("name", g.name()).put("total", t.total()).put("succeeded", t.succeeded())
          .put("failed", t.failed()).put("timedOut", t.timedOut()).put("cancelled", t.cancelled())
          .put("unreachable", t.unreachable()).put("running", t.running()).put("pending", t.pending())
          .put("interrupted", t.interrupted()).put("summary", t.describe());
    }
    if (!report.revisions().isEmpty()) {
      ArrayNode revisions = root.putArray("revisions");
      report.revisions().forEach(v -> revisions.addObject().put("at", v.at().toString()).put("added", v.added())
          .put("removed", v.removed()).put("changed", v.changed()).put("summary", v.summary()));
    }
    if (waiting.hasNonNull("containment")) {
      root.put("containment", waiting.get("containment").asText());
    }
    extras.run(root);
    ArrayNode tasks = root.putArray("tasks");
    for (TaskRecord r : view.state().tasks()) {
      ObjectNode n = tasks.addObject();
      n.put("id", r.spec().id().value()).put("group", r.spec().group())
          .put("status", TaskStatus.of(r.state()).name()).put("state", r.state().name());
      List<Attempt> attempts = r.history().attempts();
      n.put("attempt", attempts.size());
      if (!attempts.isEmpty()) {
        Attempt last = attempts.get(attempts.size() - 1);
        List<String> devices = AttemptStage.shownDevices(r.history());
        n.put("device", devices.get(devices.size() - 1));
        Instant end = last.ranUntil().orElse(now);
        n.put("runtimeMs", Duration.between(last.ranFrom(), end).toMillis());
      }
      extras.task(r, n);
      r.history().finalReason().ifPresent(reason -> n.put("reason", reason));
      boolean waits = holder.isPresent(); // while no Berth runs the run, what the last one waited for is history
      if (waits && waiting.path("tasks").has(r.spec().id().value()) && !r.state().isTerminal()) {
        n.put("waitingFor", waiting.path("tasks").get(r.spec().id().value()).asText());
      } else if (waits && r.state() == TaskState.READY && waiting.has("blockedBy")) {
        n.put("waitingFor", waiting.get("blockedBy").asText());
      }
    }
    return root;
  }

  private static JsonNode readWaiting(Path dir) {
    Path file = StatusFile.of(dir);
    try {
      return Files.exists(file) ? JSON.readTree(file.toFile()) : JSON.createObjectNode();
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
