package dev.berth.cli;

import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.host.HostLedgers;
import dev.berth.runtime.control.RunLock;
import dev.berth.serve.DashboardServer;
import dev.berth.serve.LedgerCatalog;
import dev.berth.serve.RunActions;
import dev.berth.serve.ServeToken;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end: a retry posted to the dashboard runs the failed task of the ended run again, in the server's process. */
class DashboardRetryTest {

  @TempDir Path dir;

  @Test
  void aRetryThroughTheApiRunsTheFailedTaskAgain() throws Exception {
    Path spec = spec(dir, "again", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: main
            cpus: 0.1
            tasks:
              - id: flaky
                command: [sh, -c, "test -f ../tried || { touch ../tried; exit 3; }"]
        """);
    Path host = dir.resolve("host");
    BerthProcess first = BerthProcess.start(dir, Map.of(HostLedgers.ENV, host.toString()), "run", "--no-progress",
        spec.toString());
    assertThat(first.await(120)).as(first.output()).isEqualTo(1);
    try (DashboardServer server = DashboardServer.start(new LedgerCatalog(host, Clock.systemUTC()),
        new RunActions(line -> { }), ServeToken.of("t0ken"), InetAddress.getLoopbackAddress(), 0, false,
        Clock.systemUTC())) {
      HttpClient http = HttpClient.newHttpClient();
      JsonNode runs = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(server.uri().resolve("/api/runs"))
          .header("Authorization", "Bearer t0ken").build(), HttpResponse.BodyHandlers.ofString()).body());
      String id = runs.get(0).get("id").asText();

      HttpResponse<String> retry = http.send(HttpRequest.newBuilder(server.uri().resolve("/api/runs/" + id + "/retry"))
          .header("Authorization", "Bearer t0ken").POST(HttpRequest.BodyPublishers.ofString("{\"tasks\":[\"flaky\"]}"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(retry.statusCode()).as(retry.body()).isEqualTo(202);

      // The retry holds the run from before the answer; its event stream ends once it has let go of it.
      HttpResponse<Stream<String>> events = http.send(HttpRequest.newBuilder(server.uri().resolve("/api/runs/" + id
          + "/events")).header("Authorization", "Bearer t0ken").build(), HttpResponse.BodyHandlers.ofLines());
      List<String> lines;
      try (Stream<String> body = events.body()) {
        lines = body.takeWhile(line -> !line.equals("event: end")).toList();
      }
      assertThat(lines).as("the stream ends with the run's last status").anyMatch(l -> l.startsWith("data: {\"run\""));
      assertThat(RunLock.holder(dir.resolve("out"))).isEmpty();
      assertThat(RunFiles.report(dir).get("status").asText()).isEqualTo("SUCCEEDED");

      HttpResponse<String> again = http.send(HttpRequest.newBuilder(server.uri().resolve("/api/runs/" + id + "/retry"))
          .header("Authorization", "Bearer t0ken").POST(HttpRequest.BodyPublishers.ofString("{}"))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(again.statusCode()).as("nothing is left to retry").isEqualTo(409);
      assertThat(again.body()).contains("nothing to retry");
    }
  }
}
