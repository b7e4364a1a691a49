package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.host.HostLedgers;
import dev.berth.serve.DashboardServer;
import dev.berth.serve.LedgerCatalog;
import dev.berth.serve.RunActions;
import dev.berth.serve.ServeToken;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real {@code berth run} in its own JVM, with the host ledger in the test's folder, and a dashboard
 * server over that ledger: for tests that watch a live run through the API or a browser.
 */
final class LiveDashboard implements AutoCloseable {

  static final String TOKEN = "test-token-0123456789";
  private static final ObjectMapper JSON = new ObjectMapper();

  final BerthProcess berth;
  final DashboardServer server;
  final CountingCatalog catalog;
  final HttpClient http = HttpClient.newHttpClient();
  final String runId;

  private LiveDashboard(BerthProcess berth, DashboardServer server, CountingCatalog catalog, String runId) {
    this.berth = berth;
    this.server = server;
    this.catalog = catalog;
    this.runId = runId;
  }

  /** Starts {@code berth run --no-progress SPEC} and a dashboard, and waits until the run is in the ledger. */
  static LiveDashboard start(Path dir, Path spec) throws Exception {
    Path host = dir.resolve("host");
    BerthProcess berth = BerthProcess.start(dir, Map.of(HostLedgers.ENV, host.toString()), "run", "--no-progress",
        spec.toString());
    CountingCatalog catalog = new CountingCatalog(new LedgerCatalog(host, Clock.systemUTC()));
    DashboardServer server = DashboardServer.start(catalog, new RunActions(System.err::println), ServeToken.of(TOKEN),
        InetAddress.getLoopbackAddress(), 0, false, Clock.systemUTC());
    LiveDashboard live = new LiveDashboard(berth, server, catalog, null);
    for (int i = 0; i < 1200; i++) {
      JsonNode runs = live.json("/api/runs");
      if (runs.size() > 0) {
        return new LiveDashboard(berth, server, catalog, runs.get(0).get("id").asText());
      }
      if (berth.process.waitFor(50, TimeUnit.MILLISECONDS)) { // waiting on another process: no event to wait for
        break;
      }
    }
    server.close();
    throw new AssertionError("the run never joined the host ledger:\n" + berth.output());
  }

  /** A request to the dashboard with the token. */
  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKEN);
  }

  URI uri(String path) {
    return server.uri().resolve(path);
  }

  /** The JSON at {@code path}, read with the token. */
  JsonNode json(String path) throws Exception {
    return JSON.readTree(http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString()).body());
  }

  /** Reads the run's event stream, from the current status on, until a status satisfies {@code condition}. */
  JsonNode awaitStatus(Predicate<JsonNode> condition) throws Exception {
    return awaitEvent("/api/runs/" + runId + "/events", "status", condition);
  }

  /** Reads the event stream at {@code path} until an event named {@code name} has data satisfying {@code condition}. */
  JsonNode awaitEvent(String path, String name, Predicate<JsonNode> condition) throws Exception {
    HttpResponse<Stream<String>> events = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofLines());
    try (Stream<String> lines = events.body()) {
      Iterator<String> it = lines.iterator();
      String event = "";
      while (it.hasNext()) {
        String line = it.next();
        if (line.startsWith("event: ")) {
          event = line.substring(7);
        } else if (line.startsWith("data: ") && event.equals(name)) {
          JsonNode data = JSON.readTree(line.substring(6));
          if (condition.test(data)) {
            return data;
          }
        }
      }
    }
    throw new AssertionError("the event stream ended first");
  }

  /** The task's state in a status. */
  static String state(JsonNode status, String task) {
    for (JsonNode t : status.get("tasks")) {
      if (t.get("id").asText().equals(task)) {
        return t.get("state").asText();
      }
    }
    return "";
  }

  @Override
  public void close() throws Exception {
    server.close();
    if (berth.process.isAlive()) {
      berth.process.destroy();
      berth.process.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
