package dev.berth.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.testkit.FakeClock;
import java.net.InetAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a page, another local user or a script cannot make the dashboard do: answer another name, stall, swell. */
class DashboardLimitsTest {

  private static final String TOKEN = "l1mits-token";

  @TempDir Path dir;
  private DashboardServer server;
  private final List<RawHttp> connections = new ArrayList<>();

  private void start(boolean publicRead) throws Exception {
    RunEntry run = new RunEntry("r1", "limits", "ann", 42, dir.resolve("run").toString(),
        new Progress("running", 1, 0, 0, 1), Instant.parse("2026-11-26T05:00:00Z"), Optional.empty(), List.of());
    server = DashboardServer.start(() -> List.of(run), new RunActions(line -> { }), ServeToken.of(TOKEN),
        InetAddress.getLoopbackAddress(), 0, publicRead, new FakeClock(Instant.parse("2026-11-26T05:10:00Z")));
  }

  @AfterEach
  void stop() throws Exception {
    for (RawHttp c : connections) {
      c.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private RawHttp connect(String from) throws Exception {
    RawHttp c = RawHttp.connect(server.uri(), from);
    connections.add(c);
    return c;
  }

  private int get(String path, String host) throws Exception {
    return connect("127.0.0.1").get(path, "Host: " + host).status();
  }

  @Test
  void aRequestNamingAnotherHostIsMisdirectedSoARebindingPageReadsNothing() throws Exception {
    start(true);
    int port = server.port();

    assertThat(get("/api/runs", "attacker.example:" + port)).isEqualTo(421);
    assertThat(get("/api/runs/r1/tasks/t/log", "attacker.example:" + port)).isEqualTo(421);
    assertThat(get("/", "attacker.example")).isEqualTo(421);
    assertThat(get("/api/runs", "127.0.0.1.attacker.example:" + port)).isEqualTo(421);
    assertThat(get("/api/runs", "127.0.0.1:" + (port == 1 ? 2 : 1))).isEqualTo(421);
    assertThat(get("/api/runs", "[::1]:" + port)).as("an address it does not listen on").isEqualTo(421);

    assertThat(get("/api/runs", "127.0.0.1:" + port)).isEqualTo(200);
    assertThat(get("/api/runs", "127.0.0.1")).isEqualTo(200);
    assertThat(get("/api/runs", "localhost:" + port)).isEqualTo(200);
    assertThat(get("/api/runs", "LocalHost")).isEqualTo(200);
  }

  @Test
  void manyOpenEventStreamsLeaveTheApiAnswering() throws Exception {
    start(false);
    String host = "Host: 127.0.0.1:" + server.port();
    String bearer = "Authorization: Bearer " + TOKEN;
    List<Integer> fromOne = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      fromOne.add(connect("127.0.0.1").get("/api/runs/events", host, bearer).status());
    }
    assertThat(fromOne.stream().filter(s -> s == 200)).hasSize(Streams.MOST_PER_CLIENT);
    assertThat(fromOne.stream().filter(s -> s == 503)).hasSize(70 - Streams.MOST_PER_CLIENT);

    List<Integer> fromOthers = new ArrayList<>();
    for (int client = 2; client <= 5; client++) {
      for (int i = 0; i < Streams.MOST_PER_CLIENT; i++) {
        fromOthers.add(connect("127.0.0.1" + client).get("/api/runs/events", host, bearer).status());
      }
    }
    assertThat(fromOthers.stream().filter(s -> s == 200)).hasSize(Streams.MOST - Streams.MOST_PER_CLIENT);

    HttpResponse<String> runs = HttpClient.newHttpClient().send(HttpRequest.newBuilder(server.uri().resolve("/api/runs"))
        .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(runs.statusCode()).isEqualTo(200);
    assertThat(runs.body()).contains("\"id\":\"r1\"");
  }

  @Test
  void theStreamOfAClientThatLeftGivesItsPlaceToTheNextOne() throws Exception {
    start(false);
    String host = "Host: 127.0.0.1:" + server.port();
    String bearer = "Authorization: Bearer " + TOKEN;
    List<RawHttp> open = new ArrayList<>();
    for (int i = 0; i < Streams.MOST_PER_CLIENT; i++) {
      RawHttp c = connect("127.0.0.1").get("/api/runs/events", host, bearer);
      assertThat(c.status()).isEqualTo(200);
      open.add(c);
    }
    assertThat(connect("127.0.0.1").get("/api/runs/events", host, bearer).status()).isEqualTo(503);

    open.get(0).close(); // a page closed: noticed long before the stream's next keep-alive
    assertThat(connect("127.0.0.1").get("/api/runs/events", host, bearer).status()).isEqualTo(200);
    assertThat(connect("127.0.0.1").get("/api/runs/events", host, bearer).status()).isEqualTo(503);
  }

  @Test
  void aChangeWithALargeBodyIsRefusedWithoutReadingIt() throws Exception {
    start(false);
    String host = "Host: 127.0.0.1:" + server.port();
    String bearer = "Authorization: Bearer " + TOKEN;

    RawHttp declared = connect("127.0.0.1").send("POST", "/api/runs/r1/cancel", host, bearer,
        "Content-Type: application/json", "Content-Length: 300000000");
    declared.write("{\"tasks\": [".getBytes(StandardCharsets.US_ASCII));
    assertThat(declared.status()).isEqualTo(413);

    RawHttp chunked = connect("127.0.0.1").send("POST", "/api/runs/r1/cancel", host, bearer,
        "Content-Type: application/json", "Transfer-Encoding: chunked");
    byte[] chunk = new byte[64 * 1024];
    java.util.Arrays.fill(chunk, (byte) ' ');
    for (int i = 0; i < 2; i++) {
      chunked.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      chunked.write(chunk).write("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    assertThat(chunked.status()).isEqualTo(413);
  }
}
