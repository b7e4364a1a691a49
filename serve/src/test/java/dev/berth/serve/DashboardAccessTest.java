package dev.berth.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.testkit.FakeClock;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DashboardAccessTest {

  private static final String TOKEN = "s3cret-token";
  private static final String HOSTILE = "<script>alert(\"x\")</script>'";

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
  private DashboardServer server;

  private void start(boolean publicRead) throws Exception {
    RunEntry run = new RunEntry("r1", HOSTILE, "ann", 42, dir.resolve("run").toString(),
        new Progress("running", 1, 2, 3, 6), Instant.parse("2026-11-26T05:00:00Z"), Optional.empty(), List.of());
    server = DashboardServer.start(() -> List.of(run), new RunActions(line -> { }), ServeToken.of(TOKEN),
        InetAddress.getLoopbackAddress(), 0, publicRead, new FakeClock(Instant.parse("2026-11-26T05:10:00Z")));
  }

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(server.uri().resolve(path)).GET();
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(server.uri().resolve(path)).POST(HttpRequest.BodyPublishers.ofString("{}"));
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theDashboardOfOneRunOpensOnThatRunAndAHostsDashboardOnItsList() throws Exception {
    RunEntry mine = new RunEntry("r 7", "sweep", "ann", 42, dir.resolve("run").toString(),
        new Progress("running", 1, 0, 0, 1), Instant.parse("2026-11-26T05:00:00Z"), Optional.empty(), List.of());
    RunEntry other = new RunEntry("r8", "other", "bob", 43, dir.resolve("other").toString(),
        new Progress("running", 1, 0, 0, 1), Instant.parse("2026-11-26T05:00:00Z"), Optional.empty(), List.of());
    server = DashboardServer.start(new OneRunCatalog(() -> List.of(other, mine), 42), new RunActions(line -> { }),
        ServeToken.of(TOKEN), InetAddress.getLoopbackAddress(), 0, false,
        new FakeClock(Instant.parse("2026-11-26T05:10:00Z")));

    HttpResponse<String> first = get("/", "Authorization", "Bearer " + TOKEN);

    assertThat(first.statusCode()).isEqualTo(303);
    assertThat(first.headers().firstValue("Location").orElseThrow()).endsWith("/runs/r%207");
    server.close();
    start(false);
    assertThat(get("/", "Authorization", "Bearer " + TOKEN).statusCode()).isEqualTo(200);
  }

  @Test
  void theApiAnswers401WithoutTheTokenAnd403WithAWrongOne() throws Exception {
    start(false);
    assertThat(get("/api/runs").statusCode()).isEqualTo(401);
    assertThat(get("/").statusCode()).isEqualTo(401);
    assertThat(get("/api/runs", "Authorization", "Bearer wrong-token").statusCode()).isEqualTo(403);
    assertThat(get("/?token=wrong").statusCode()).isEqualTo(403);
    HttpResponse<String> ok = get("/api/runs", "Authorization", "Bearer " + TOKEN);
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).contains("\"id\":\"r1\"");
  }

  @Test
  void theServerListensOnLoopbackOnly() throws Exception {
    start(false);
    assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
    assertThat(server.link().getQuery()).isEqualTo("token=" + TOKEN);
  }

  @Test
  void hostileTaskTextIsEscapedInJson() throws Exception {
    start(false);
    String body = get("/api/runs", "Authorization", "Bearer " + TOKEN).body();
    assertThat(body).doesNotContain("<script>").doesNotContain("'")
        .contains("\\u003Cscript\\u003Ealert(\\\"x\\\")\\u003C/script\\u003E\\u0027");
  }

  @Test
  void theFirstPageLoadKeepsTheTokenInAStrictHttpOnlyCookieNamedForItsPortAndDropsItFromTheAddress() throws Exception {
    start(false);
    HttpResponse<String> first = get("/runs/r1?token=" + TOKEN);
    assertThat(first.statusCode()).isEqualTo(303);
    assertThat(first.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/runs/r1"));
    String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
    assertThat(cookie).startsWith(cookie() + "=" + TOKEN + ";").containsIgnoringCase("Path=/")
        .containsIgnoringCase("HttpOnly").containsIgnoringCase("SameSite=Strict");
    HttpResponse<String> page = get("/runs/r1", "Cookie", cookie() + "=" + TOKEN);
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body()).contains("/assets/dashboard.js").doesNotContain("http://").doesNotContain("https://");
  }

  /** The name of the cookie of the dashboard on the server's port. */
  private String cookie() {
    return "berth_token_" + server.port();
  }

  @Test
  void aCookieSetForAnotherPortIsNotTheToken() throws Exception {
    start(false);
    int other = server.port() == 1 ? 2 : server.port() - 1;
    // browsers send the cookies of 127.0.0.1 to every port on it: another dashboard's, or any other service's
    assertThat(get("/api/runs", "Cookie", "berth_token=" + TOKEN).statusCode()).isEqualTo(401);
    assertThat(get("/api/runs", "Cookie", "berth_token_" + other + "=" + TOKEN).statusCode()).isEqualTo(401);
    assertThat(get("/api/runs", "Cookie", cookie() + "=" + TOKEN).statusCode()).isEqualTo(200);
  }

  @Test
  void noResponseCarriesCorsHeaders() throws Exception {
    start(true);
    HttpResponse<String> r = get("/api/runs", "Origin", "https://evil.example");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().map().keySet()).noneMatch(h -> h.toLowerCase().startsWith("access-control-"));
  }

  @Test
  void publicReadOpensReadsButChangesStillNeedTheToken() throws Exception {
    start(true);
    assertThat(get("/api/runs").statusCode()).isEqualTo(200);
    assertThat(post("/api/runs/r1/cancel").statusCode()).isEqualTo(401);
    assertThat(post("/api/runs/r1/cancel", "Authorization", "Bearer nope").statusCode()).isEqualTo(403);
  }

  @Test
  void aChangeAskedWithTheCookieFromAnotherSiteIsRefused() throws Exception {
    start(false);
    HttpResponse<String> r = post("/api/runs/r1/cancel", "Cookie", cookie() + "=" + TOKEN,
        "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body()).contains("own pages");
    HttpResponse<String> same = post("/api/runs/r1/cancel", "Cookie", cookie() + "=" + TOKEN,
        "Origin", server.uri().toString().replaceAll("/$", ""), "Sec-Fetch-Site", "same-origin");
    assertThat(same.statusCode()).as(same.body()).isEqualTo(409); // allowed through; the run is not live
  }

  @Test
  void aRunIsNamedByItsLedgerIdNeverByAPath() throws Exception {
    start(false);
    assertThat(get("/api/runs/..%2F..%2Fetc", "Authorization", "Bearer " + TOKEN).statusCode()).isIn(400, 404);
    assertThat(get("/api/runs/nope/tasks", "Authorization", "Bearer " + TOKEN).statusCode()).isEqualTo(404);
    assertThat(get("/assets/../../etc/passwd", "Authorization", "Bearer " + TOKEN).statusCode()).isIn(400, 404);
  }

  @Test
  void theTokenFileIsReadableByItsUserOnly() throws Exception {
    Path file = dir.resolve("home").resolve("serve-token");
    ServeToken token = ServeToken.generate();
    token.writeTo(file);
    assertThat(Files.readString(file).trim()).isEqualTo(token.value());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    ServeToken next = ServeToken.generate();
    next.writeTo(file);
    assertThat(Files.readString(file).trim()).isEqualTo(next.value());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    try (var files = Files.list(file.getParent())) {
      assertThat(files).as("written beside it, then renamed over it").containsExactly(file);
    }
    assertThat(token.value()).hasSize(43).matches("[A-Za-z0-9_-]+");
    assertThat(token.matches(token.value())).isTrue();
    assertThat(token.matches(ServeToken.generate().value())).isFalse();
  }
}
