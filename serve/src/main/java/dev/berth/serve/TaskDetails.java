package dev.berth.serve;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.report.FailureTails;
import dev.berth.session.JournalView;
import dev.berth.session.StatusJson;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * What the dashboard adds to each task of {@code berth status --json}'s shape: its matrix values
 * ({@code params}), the results it reported ({@code results}), every attempt with its device, start,
 * end and outcome ({@code attempts}, for the timeline), and for a task that has not succeeded the
 * last lines of its latest attempt's stderr ({@code stderrTail}, read as the reports read them).
 */
final class TaskDetails implements StatusJson.Extras {

  private static final ObjectMapper PLAIN = new ObjectMapper();

  private final JournalView view;

  TaskDetails(JournalView view) {
    this.view = view;
  }

  @Override
  public void run(ObjectNode root) {}

  @Override
  public void task(TaskRecord record, ObjectNode node) {
    if (!record.spec().params().isEmpty()) {
      ObjectNode params = node.putObject("params");
      record.spec().params().forEach(params::put);
    }
    SortedMap<String, String> results = view.replay().results().get(record.spec().id());
    if (results != null && !results.isEmpty()) {
      ObjectNode o = node.putObject("results");
      for (Map.Entry<String, String> r : results.entrySet()) {
        try {
          o.set(r.getKey(), PLAIN.readTree(r.getValue()));
        } catch (IOException e) {
          o.put(r.getKey(), r.getValue());
        }
      }
    }
    List<Attempt> attempts = record.history().attempts();
    ArrayNode array = node.putArray("attempts");
    for (Attempt a : attempts) {
      ObjectNode o = array.addObject().put("number", a.number()).put("device", a.placement().device())
          .put("startedAt", a.startedAt().toEpochMilli());
      a.end().ifPresent(e -> o.put("endedAt", e.at().toEpochMilli()).put("outcome", e.outcome().name()));
    }
    if (attempts.isEmpty() || record.state() == TaskState.SUCCEEDED) {
      return;
    }
    String tail = FailureTails.of(view.layout().taskDir(record.spec()), attempts.get(attempts.size() - 1).number());
    if (!tail.isEmpty()) {
      node.put("stderrTail", tail);
    }
  }
}
