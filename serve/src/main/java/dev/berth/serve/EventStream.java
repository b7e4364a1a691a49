package dev.berth.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One server-sent event stream: sends what a snapshot reads now, then again each time a watched
 * folder changes and the snapshot differs, with one {@code task} event per task whose state moved.
 * Between changes it waits on file notifications, and writes a comment line every {@code quiet} so
 * that a client that left is noticed. Once the run is no longer live it sends the last snapshot and an
 * {@code end} event, and closes.
 */
final class EventStream {

  private final List<Path> watched;
  private final Supplier<Optional<JsonNode>> snapshot;
  private final String event;
  private final BooleanSupplier ended;
  private final Duration quiet;

  EventStream(List<Path> watched, Supplier<Optional<JsonNode>> snapshot, String event, BooleanSupplier ended,
      Duration quiet) {
    this.watched = List.copyOf(watched);
    this.snapshot = snapshot;
    this.event = event;
    this.ended = ended;
    this.quiet = quiet;
  }

  /**
   * Streams into {@code out}, through its {@code place}, until the client leaves (an I/O error), the
   * watch is closed (the server stops, or found the client gone) or the thread is interrupted.
   */
  void run(OutputStream out, Streams.Place place) throws IOException {
    try (DirectoryWatch watch = new DirectoryWatch(watched)) {
      place.attach(out, watch);
      JsonNode last = null;
      place.send("retry: 2000\n\n");
      while (true) {
        boolean over = ended.getAsBoolean(); // asked before the snapshot, so the last one sent is the final one
        Optional<JsonNode> now = read();
        if (now.isPresent() && !withoutClock(now.get()).equals(last == null ? null : withoutClock(last))) {
          for (String change : taskChanges(last, now.get())) {
            place.send("event: task\ndata: " + change + "\n\n");
          }
          place.send("event: " + event + "\ndata: " + RunApi.JSON.writeValueAsString(now.get()) + "\n\n");
          last = now.get();
        }
        if (over) {
          place.send("event: end\ndata: {}\n\n");
          return;
        }
        if (!watch.awaitChange(quiet)) {
          place.send(": still here\n\n");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The snapshot now; none when it cannot be read this time (a ledger or journal caught in the middle
   * of being made): the next change reads again.
   */
  private Optional<JsonNode> read() {
    try {
      return snapshot.get();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** For run status snapshots: {@code {"id","from","to"}} for each task whose state differs. */
  static List<String> taskChanges(JsonNode before, JsonNode after) throws IOException {
    List<String> changes = new ArrayList<>();
    if (before == null || !after.has("tasks")) {
      return changes;
    }
    Map<String, String> was = new LinkedHashMap<>();
    before.path("tasks").forEach(t -> was.put(t.path("id").asText(), t.path("state").asText()));
    for (JsonNode t : after.get("tasks")) {
      String id = t.path("id").asText();
      String state = t.path("state").asText();
      if (!state.equals(was.get(id))) {
        var change = RunApi.JSON.createObjectNode().put("id", id).put("from", was.get(id)).put("to", state);
        changes.add(RunApi.JSON.writeValueAsString(change));
      }
    }
    return changes;
  }

  /** The snapshot without run times, which grow at every read and are no change by themselves. */
  private static JsonNode withoutClock(JsonNode snapshot) {
    JsonNode copy = snapshot.deepCopy();
    copy.path("tasks").forEach(t -> {
      if (t instanceof ObjectNode o) {
        o.remove("runtimeMs");
      }
    });
    return copy;
  }
}
