package dev.berth.cli;

import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end: a task's log through the API, its latest attempt's streamed live, and each attempt's own. */
class DashboardAttemptLogTest {

  @TempDir Path dir;

  @Test
  void theLogOfEachAttemptIsServedAndTheLatestIsStreamedAsItIsWritten() throws Exception {
    Path spec = spec(dir, "attempts", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}}
        groups:
          - name: main
            cpus: 0.1
            retries: 1
            tasks:
              - id: flaky
                command: [sh, -c, "if test -f ../tried; then echo 'second <try>' >&2; sleep 3; else touch ../tried; echo 'first <try>' >&2; exit 3; fi"]
        """);
    try (LiveDashboard live = LiveDashboard.start(dir, spec)) {
      String log = "/api/runs/" + live.runId + "/tasks/flaky/log";
      JsonNode streamed = live.awaitEvent(log + "/events", "log", l -> l.toString().contains("second"));
      assertThat(streamed.get("lines").get(0).asText()).isEqualTo("second <try>");

      JsonNode first = live.json(log + "?attempt=1");
      assertThat(first.get("lines").get(0).asText()).isEqualTo("first <try>");
      assertThat(live.json(log + "?attempt=2").get("lines").get(0).asText()).isEqualTo("second <try>");
      HttpResponse<String> raw = live.http.send(live.request(log + "?attempt=1").build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(raw.body()).doesNotContain("<try>").contains("first \\u003Ctry\\u003E");
      assertThat(live.http.send(live.request(log + "?attempt=3").build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).as("an attempt it has not made").isEqualTo(404);
      assertThat(live.http.send(live.request(log + "?attempt=../../x").build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).isEqualTo(400);
      JsonNode firstStreamed = live.awaitEvent(log + "/events?attempt=1", "log", l -> l.get("lines").size() > 0);
      assertThat(firstStreamed.get("lines").get(0).asText()).isEqualTo("first <try>");
      assertThat(live.berth.await(60)).as(live.berth.output()).isZero();
    }
  }
}
