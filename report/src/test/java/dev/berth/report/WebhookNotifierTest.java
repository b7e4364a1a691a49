package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WebhookNotifierTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Generous: the deliveries are local, but the machine may be loaded. */
  private static final long WAIT_SECONDS = 60;

  private final List<String> bodies = Collections.synchronizedList(new ArrayList<>());
  private final List<Duration> waits = Collections.synchronizedList(new ArrayList<>());
  private final Delays recorded = d -> {
    waits.add(d);
    return CompletableFuture.completedFuture(null);
  };
  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void theRunEndIsPostedAsSlackCompatibleJson() throws Exception {
    String url = receiver(200, 200);

    Delivery d = notifier(url, "run-end").runEnded(SampleRun.report()).get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.wasSent()).as(d.toString()).isTrue();
    JsonNode body = JSON.readTree(bodies.get(0));
    assertThat(body.get("text").asText()).isEqualTo(
        "Berth run sweep-demo FAILED: 4/7 tasks succeeded (2 failed, 1 unreachable) in 5m00s");
    assertThat(body.get("run").asText()).isEqualTo("sweep-demo");
    assertThat(body.get("event").asText()).isEqualTo("run-end");
    assertThat(body.get("status").asText()).isEqualTo("FAILED");
    assertThat(body.get("totals").get("total").asInt()).isEqualTo(7);
    assertThat(body.get("totals").get("succeeded").asInt()).isEqualTo(4);
    assertThat(body.get("totals").get("unreachable").asInt()).isEqualTo(1);
    assertThat(waits).isEmpty();
  }

  @Test
  void aReceiverFailingTwiceIsRetriedWithExponentialBackoffUntilItAccepts() throws Exception {
    String url = receiver(500, 500, 200);

    Delivery d = notifier(url, "run-end").runEnded(SampleRun.report()).get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.wasSent()).as(d.toString()).isTrue();
    assertThat(d.detail()).endsWith("accepted (HTTP 200, try 3)");
    assertThat(bodies).hasSize(3).allMatch(b -> b.equals(bodies.get(0)));
    assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  @Test
  void aReceiverThatNeverAcceptsIsGivenUpAfterThreeTriesWithoutAnException() throws Exception {
    String url = receiver(503, 503, 503, 503);

    Delivery d = notifier(url, "run-end").runEnded(SampleRun.report()).get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.status()).isEqualTo(Delivery.Status.FAILED);
    assertThat(d.detail()).contains("gave up after 3 tries: HTTP 503").doesNotContain("/hook");
    assertThat(bodies).hasSize(3);
    assertThat(waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  @Test
  void aClientErrorIsNotRetried() throws Exception {
    String url = receiver(404, 200);

    Delivery d = notifier(url, "run-end").runEnded(SampleRun.report()).get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.status()).isEqualTo(Delivery.Status.FAILED);
    assertThat(d.detail()).contains("gave up after 1 try: HTTP 404 nope");
    assertThat(waits).isEmpty();
  }

  @Test
  void noReceiverListeningIsRetriedThenAFailedDelivery() throws Exception {
    // A port bound but not listening refuses connections, and no other process can take it meanwhile.
    try (Socket reserved = new Socket()) {
      reserved.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));

      Delivery d = notifier("http://127.0.0.1:" + reserved.getLocalPort() + "/hook", "run-end")
          .runEnded(SampleRun.report()).get(WAIT_SECONDS, TimeUnit.SECONDS);

      assertThat(d.status()).isEqualTo(Delivery.Status.FAILED);
      assertThat(d.detail()).contains("gave up after 3 tries: ConnectException");
      assertThat(waits).hasSize(2);
    }
  }

  @Test
  void aFailedTaskIsPostedWithItsErrorsLastLineEscapedForSlack() throws Exception {
    String url = receiver(200);
    var report = SampleRun.report();
    var task = report.groups().get(2).tasks().get(0);

    Delivery d = notifier(url, "task-failed").taskFailed(report, task).get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.wasSent()).as(d.toString()).isTrue();
    JsonNode body = JSON.readTree(bodies.get(0));
    assertThat(body.get("text").asText()).isEqualTo("Berth run sweep-demo: task eval-&lt;script&gt;alert(1)&lt;/script&gt;"
        + " (evaluate) FAILED after 1 attempt: &lt;script&gt;alert(1)&lt;/script&gt; | broken \"pipe\" &amp; 'quote'");
    assertThat(body.get("event").asText()).isEqualTo("task-failed");
    assertThat(body.get("task").get("id").asText()).isEqualTo(SampleRun.EVIL_ID);
    assertThat(body.get("task").get("error").asText()).isEqualTo(SampleRun.EVIL_ERROR);
  }

  @Test
  void aGroupEndCarriesTheGroupsStatusAndTotals() throws Exception {
    String url = receiver(200);

    Delivery d = notifier(url, "group-end").groupEnded(SampleRun.report(), "train").get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.wasSent()).as(d.toString()).isTrue();
    JsonNode body = JSON.readTree(bodies.get(0));
    assertThat(body.get("group").asText()).isEqualTo("train");
    assertThat(body.get("status").asText()).isEqualTo("FAILED");
    assertThat(body.get("totals").get("total").asInt()).isEqualTo(4);
    assertThat(body.get("text").asText()).isEqualTo("Berth run sweep-demo, group train FAILED: 3/4 tasks succeeded (1 failed)");
  }

  @Test
  void eventsNotSubscribedToAreSkippedWithoutARequest() throws Exception {
    String url = receiver(200);

    Delivery d = notifier(url, "run-end").groupEnded(SampleRun.report(), "train").get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d).isEqualTo(Delivery.skipped("webhook is not subscribed to group-end"));
    assertThat(bodies).isEmpty();
  }

  @Test
  void settingsRejectWhatCannotWork() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> WebhookSettings.of("ftp://x/y", List.of()))
        .hasMessageContaining("http or https");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> WebhookSettings.of("http://x/y", List.of("run-ended")))
        .hasMessage("'run-ended' is not a webhook event; use run-end, task-failed, group-end");
    assertThat(WebhookSettings.of("https://hooks.example/T/123", List.of()).events()).isEqualTo(Set.of(WebhookEvent.RUN_END));
    assertThat(WebhookSettings.of("https://hooks.example/T/123", List.of()).shownUrl()).isEqualTo("https://hooks.example/…");
  }

  @Test
  void userAndPasswordInTheUrlBecomeABasicAuthorizationHeaderAndLeaveTheAddress() throws Exception {
    List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
    String url = receiver(200);
    server.removeContext("/hook");
    server.createContext("/hook", exchange -> {
      authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      bodies.add(exchange.getRequestURI().toString());
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
    });
    String withUser = url.replace("http://", "http://berth:s%40cret@") + "?token=t0k";

    Delivery d = notifier(withUser, "run-end").runEnded(SampleRun.report()).get(WAIT_SECONDS, TimeUnit.SECONDS);

    assertThat(d.wasSent()).as(d.toString()).isTrue();
    assertThat(authorizations).containsExactly("Basic " + java.util.Base64.getEncoder()
        .encodeToString("berth:s@cret".getBytes(StandardCharsets.UTF_8)));
    assertThat(bodies).containsExactly("/hook?token=t0k");
    assertThat(d.toString()).doesNotContain("s%40cret").doesNotContain("t0k").doesNotContain("berth:");
  }

  private WebhookNotifier notifier(String url, String... events) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    return new WebhookNotifier(WebhookSettings.of(url, List.of(events)), client, recorded);
  }

  /** Starts a receiver answering each request with the next status, the last one repeating. */
  private String receiver(int... statuses) throws IOException {
    AtomicInteger calls = new AtomicInteger();
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/hook", exchange -> {
      bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      int status = statuses[Math.min(calls.getAndIncrement(), statuses.length - 1)];
      byte[] answer = (status == 404 ? "nope" : "ok").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, answer.length);
      exchange.getResponseBody().write(answer);
      exchange.close();
    });
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/hook";
  }
}
