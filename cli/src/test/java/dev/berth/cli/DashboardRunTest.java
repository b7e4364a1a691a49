package dev.berth.cli;

import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: a live run seen and cancelled through the dashboard's API with a real HTTP client;
 * what the task writes and what a client sends come back escaped.
 */
class DashboardRunTest {

  private static final String EVIL = "evil";

  @TempDir Path dir;

  @Test
  void aCancelThroughTheApiEndsTheTaskAndHostileTextStaysEscaped() throws Exception {
    Path spec = spec(dir, "api", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: main
            cpus: 0.1
            tasks:
              - id: "%s"
                command: [sh, -c, "echo '<script>\\"x\\"</script>' >&2; sleep 60 & wait"]
              - id: after
                after: "%s"
                command: ["true"]
        """.formatted(EVIL, EVIL));
    try (LiveDashboard live = LiveDashboard.start(dir, spec)) {
      String tasks = "/api/runs/" + live.runId + "/tasks";
      assertThat(live.http.send(HttpRequest.newBuilder(live.uri(tasks)).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode()).isEqualTo(401);
      assertThat(live.http.send(HttpRequest.newBuilder(live.uri(tasks)).header("Authorization", "Bearer wrong").build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);
      JsonNode running = live.awaitStatus(s -> LiveDashboard.state(s, EVIL).equals("RUNNING"));
      assertThat(running.get("live").asBoolean()).isTrue();
      HttpResponse<String> listed = live.http.send(live.request(tasks).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(listed.statusCode()).isEqualTo(200);
      assertThat(live.json(tasks).findValuesAsText("id")).containsExactly(EVIL, "after");

      String log = "/api/runs/" + live.runId + "/tasks/" + java.net.URLEncoder.encode(EVIL, "UTF-8")
          .replace("+", "%20") + "/log";
      // Running is no sign the task has written its line yet: its log's event stream is.
      live.awaitEvent(log + "/events", "log", data -> data.toString().contains("script"));
      String tail = live.http.send(live.request(log).build(), HttpResponse.BodyHandlers.ofString()).body();
      assertThat(tail).doesNotContain("<script>").contains("\\u003Cscript\\u003E\\\"x\\\"");

      HttpResponse<String> cancel = live.http.send(live.request("/api/runs/" + live.runId + "/cancel")
          .POST(HttpRequest.BodyPublishers.ofString("{\"tasks\": [\"evil*\"], \"reason\": \"<img src=x onerror=alert(1)>\"}"))
          .build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(cancel.statusCode()).as(cancel.body()).isEqualTo(202);
      JsonNode ended = live.awaitStatus(s -> LiveDashboard.state(s, EVIL).equals("CANCELLED")
          && !LiveDashboard.state(s, "after").equals("QUEUED"));
      assertThat(LiveDashboard.state(ended, "after")).isEqualTo("CANCELLED"); // it can no longer run
      String shown = live.http.send(live.request(tasks).build(), HttpResponse.BodyHandlers.ofString()).body();
      assertThat(shown).doesNotContain("<img").contains("\\u003Cimg src=x onerror=alert(1)\\u003E")
          .as("the last lines of its stderr").doesNotContain("<script>")
          .contains("\"stderrTail\":\"\\u003Cscript\\u003E\\\"x\\\"\\u003C/script\\u003E\"");
      assertThat(live.berth.await(60)).as(live.berth.output()).isNotEqualTo(-1);
    }
  }
}
