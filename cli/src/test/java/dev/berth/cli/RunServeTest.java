package dev.berth.cli;

import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.host.HostLedgers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end: {@code berth run --serve} serves the dashboard of just its own run while the run lives. */
class RunServeTest {

  private static final Pattern LINK = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+/)\\?token=([A-Za-z0-9_-]+)");

  @TempDir Path dir;

  @Test
  void aRunWithServeShowsOnlyItselfAndStopsServingWhenItEnds() throws Exception {
    Path spec = spec(dir, "served", """
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: main
            cpus: 0.1
            tasks:
              - id: wait
                command: [sh, -c, "sleep 60 & wait"]
        """);
    Path home = dir.resolve("home");
    BerthProcess berth = BerthProcess.start(dir, Map.of(HostLedgers.ENV, dir.resolve("host").toString(),
        "HOME", home.toString()), "run", "--no-progress", "--serve=0", spec.toString());
    try {
      served(berth, home.resolve(".berth").resolve("serve-token"));
    } finally {
      berth.process.destroy();
      berth.process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private void served(BerthProcess berth, Path tokenFile) throws Exception {
    Matcher link = LINK.matcher("");
    for (int i = 0; i < 1200 && !link.find(); i++) { // waiting on another process: no event to wait for
      assertThat(berth.process.waitFor(50, TimeUnit.MILLISECONDS)).as(berth.output()).isFalse();
      link = LINK.matcher(berth.output());
    }
    assertThat(tokenFile).as("the token file of the home the run was given").hasContent(link.group(2));
    URI base = URI.create(link.group(1));
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest list = HttpRequest.newBuilder(base.resolve("/api/runs")).header("Authorization", "Bearer " + link.group(2))
        .build();
    JsonNode runs = new ObjectMapper().createArrayNode();
    for (int i = 0; i < 1200 && runs.isEmpty(); i++) { // the dashboard starts before the run joins the host ledger
      runs = new ObjectMapper().readTree(http.send(list, HttpResponse.BodyHandlers.ofString()).body());
      assertThat(berth.process.waitFor(runs.isEmpty() ? 50 : 0, TimeUnit.MILLISECONDS)).as(berth.output()).isFalse();
    }
    assertThat(runs).hasSize(1);
    assertThat(runs.get(0).get("run").asText()).isEqualTo("served");

    http.send(HttpRequest.newBuilder(base.resolve("/api/runs/" + runs.get(0).get("id").asText() + "/cancel"))
        .header("Authorization", "Bearer " + link.group(2)).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(berth.await(60)).as(berth.output()).isNotEqualTo(-1);
  }
}
