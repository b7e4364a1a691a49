package dev.berth.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.Totals;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON a webhook receives: {@code {"text": ..., "run": ..., "event": ..., "status": ..., "totals": {...}}}
 * and, for group and task events, a {@code group} or {@code task} object. {@code text} is one line that chat
 * services such as Slack show as the message, escaped as they require.
 */
public final class WebhookPayload {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ERROR = 200;

  private WebhookPayload() {}

  /** The run finished: status and totals of the run. */
  public static String runEnd(RunReport r) {
    Duration took = Summary.took(r);
    String text = "Berth run " + r.run() + " " + r.status() + ": " + Summary.ratio(r.totals()) + " tasks succeeded"
        + unsuccessful(r.totals()) + (took == null ? "" : " in " + Formats.duration(took));
    Map<String, Object> m = base(text, r, WebhookEvent.RUN_END, r.status().name(), r.totals());
    m.put("started_at", Formats.iso(r.startedAt()));
    m.put("finished_at", r.finishedAt() == null ? null : Formats.iso(r.finishedAt()));
    return json(m);
  }

  /** A group finished: its status and totals. */
  public static String groupEnd(RunReport r, GroupReport g) {
    String status = Summary.groupStatus(g);
    String text = "Berth run " + r.run() + ", group " + g.name() + " " + status + ": " + Summary.ratio(g.totals())
        + " tasks succeeded" + unsuccessful(g.totals());
    Map<String, Object> m = base(text, r, WebhookEvent.GROUP_END, status, g.totals());
    m.put("group", g.name());
    return json(m);
  }

  /** A task failed for good: its status, the run's totals so far, and the task with its error. */
  public static String taskFailed(RunReport r, TaskReport t) {
    String error = headline(ReportedAttempts.message(t));
    String text = "Berth run " + r.run() + ": task " + t.id() + " (" + t.group() + ") " + t.status() + " after "
        + t.attempts().size() + (t.attempts().size() == 1 ? " attempt" : " attempts")
        + (error.isEmpty() ? "" : ": " + error);
    Map<String, Object> m = base(text, r, WebhookEvent.TASK_FAILED, t.status().name(), r.totals());
    Map<String, Object> task = new LinkedHashMap<>();
    task.put("id", t.id());
    task.put("group", t.group());
    task.put("status", t.status().name());
    task.put("attempts", t.attempts().size());
    task.put("params", t.params());
    task.put("error", t.error());
    m.put("task", task);
    return json(m);
  }

  private static Map<String, Object> base(String text, RunReport r, WebhookEvent e, String status, Totals t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("text", Escape.slack(text));
    m.put("run", r.run());
    m.put("event", e.key());
    m.put("status", status);
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("total", t.total());
    totals.put("succeeded", t.succeeded());
    totals.put("failed", t.failed());
    totals.put("timed_out", t.timedOut());
    totals.put("cancelled", t.cancelled());
    totals.put("unreachable", t.unreachable());
    totals.put("running", t.running());
    totals.put("pending", t.pending());
    totals.put("interrupted", t.interrupted());
    m.put("totals", totals);
    return m;
  }

  private static String unsuccessful(Totals t) {
    if (t.unsuccessful() == 0) {
      return "";
    }
    return " (" + t.describeUnsuccessful() + t.describeUnended() + ")";
  }

  /** The last non-blank line of an error, where a Python traceback names the exception; cut for a chat line. */
  static String headline(String error) {
    List<String> lines = error.lines().filter(l -> !l.isBlank()).toList();
    String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1).strip();
    return last.length() <= MAX_ERROR ? last : last.substring(0, MAX_ERROR) + "…";
  }

  private static String json(Map<String, Object> m) {
    try {
      return JSON.writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }
}
