package dev.berth.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Progress;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runs list's event stream pushes the host ledger's runs as they join, make progress and end. */
class LiveRunsListTest {

  private static final String TOKEN = "runs-token";
  private static final String HOSTILE = "<img src=x onerror=alert('x')>";

  @TempDir Path dir;

  @Test
  void aRunThatJoinsTheLedgerAndEndsIsPushedToTheRunsStreamEscaped() throws Exception {
    Path host = Files.createDirectories(dir.resolve("host"));
    ObjectMapper json = new ObjectMapper();
    HttpClient http = HttpClient.newHttpClient();
    try (DashboardServer server = DashboardServer.start(new LedgerCatalog(host, Clock.systemUTC()),
        new RunActions(line -> { }), ServeToken.of(TOKEN), InetAddress.getLoopbackAddress(), 0, false,
        Clock.systemUTC())) {
      HttpResponse<Stream<String>> events = http.send(HttpRequest.newBuilder(server.uri().resolve("/api/runs/events"))
          .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofLines());
      assertThat(events.statusCode()).isEqualTo(200);
      try (Stream<String> lines = events.body()) {
        Iterator<String> stream = lines.iterator();
        assertThat(next(stream, json, runs -> true)).as("no run yet").isEmpty();

        SharedReservations ledger = HostLedgers.open(host);
        try {
          ledger.join(HostLedgers.self(HOSTILE, dir.resolve("run").toString()), Instant.now());
          String raw = nextRaw(stream, line -> line.contains("onerror"));
          assertThat(raw).doesNotContain("<img").contains("\\u003Cimg src=x onerror=alert(\\u0027x\\u0027)\\u003E");
          ledger.look(new Progress("running", 2, 1, 1, 4), List.of(), Instant.now());
          assertThat(next(stream, json, runs -> runs.get(0).get("done").asInt() == 1).get(0).get("total").asInt())
              .isEqualTo(4);
          ledger.leave("succeeded", Instant.now());
        } finally {
          ledger.close();
        }
        JsonNode ended = next(stream, json, runs -> !runs.get(0).get("endedAt").isNull());
        assertThat(ended.get(0).get("run").asText()).isEqualTo(HOSTILE);
      }
    }
  }

  /** The next {@code runs} event whose list satisfies {@code condition}. */
  private static JsonNode next(Iterator<String> stream, ObjectMapper json, Predicate<JsonNode> condition)
      throws Exception {
    while (true) {
      JsonNode runs = json.readTree(nextRaw(stream, line -> true));
      if (condition.test(runs)) {
        return runs;
      }
    }
  }

  /** The data of the next {@code runs} event whose text satisfies {@code condition}. */
  private static String nextRaw(Iterator<String> stream, Predicate<String> condition) {
    String event = "";
    while (stream.hasNext()) {
      String line = stream.next();
      if (line.startsWith("event: ")) {
        event = line.substring(7);
      } else if (line.startsWith("data: ") && event.equals("runs") && condition.test(line.substring(6))) {
        return line.substring(6);
      }
    }
    throw new AssertionError("the stream ended first");
  }
}
