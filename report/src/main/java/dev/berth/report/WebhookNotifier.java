package dev.berth.report;

import dev.berth.core.report.GroupReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.TaskReport;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * POSTs JSON notifications ({@link WebhookPayload}) to a webhook, retrying with exponential backoff on network
 * errors and on 5xx, 408 and 429 answers. Asynchronous so the run never waits on a slow receiver; every future
 * completes normally with a {@link Delivery}, a failure included.
 */
public final class WebhookNotifier {

  private final WebhookSettings settings;
  private final HttpClient client;
  private final Delays delays;

  /** A notifier posting through {@code client}, waiting between tries through {@code delays}. */
  public WebhookNotifier(WebhookSettings settings, HttpClient client, Delays delays) {
    this.settings = settings;
    this.client = client;
    this.delays = delays;
  }

  /** A notifier with its own HTTP client and real waits. */
  public static WebhookNotifier create(WebhookSettings settings) {
    HttpClient client = HttpClient.newBuilder()
        .connectTimeout(settings.timeout())
        .followRedirects(HttpClient.Redirect.NORMAL)
        .build();
    return new WebhookNotifier(settings, client, Delays.real());
  }

  /** Posts {@code run-end} when subscribed. */
  public CompletableFuture<Delivery> runEnded(RunReport report) {
    return postIfWanted(WebhookEvent.RUN_END, () -> WebhookPayload.runEnd(report));
  }

  /** Posts {@code group-end} for the named group when subscribed. */
  public CompletableFuture<Delivery> groupEnded(RunReport report, String group) {
    for (GroupReport g : report.groups()) {
      if (g.name().equals(group)) {
        return postIfWanted(WebhookEvent.GROUP_END, () -> WebhookPayload.groupEnd(report, g));
      }
    }
    return CompletableFuture.completedFuture(Delivery.failed("no group '" + group + "' in run " + report.run()));
  }

  /** Posts {@code task-failed} when subscribed. */
  public CompletableFuture<Delivery> taskFailed(RunReport report, TaskReport task) {
    return postIfWanted(WebhookEvent.TASK_FAILED, () -> WebhookPayload.taskFailed(report, task));
  }

  private CompletableFuture<Delivery> postIfWanted(WebhookEvent event, Supplier<String> body) {
    if (!settings.wants(event)) {
      return CompletableFuture.completedFuture(Delivery.skipped("webhook is not subscribed to " + event.key()));
    }
    try {
      return post(event, body.get());
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(Delivery.failed("webhook " + event.key() + ": " + e));
    }
  }

  /** Posts a JSON body for an event, with retries; whether the event is subscribed is the caller's business. */
  public CompletableFuture<Delivery> post(WebhookEvent event, String json) {
    HttpRequest.Builder request = HttpRequest.newBuilder(settings.target())
        .timeout(settings.timeout())
        .header("Content-Type", "application/json; charset=utf-8")
        .header("User-Agent", "berth")
        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    settings.authorization().ifPresent(value -> request.header("Authorization", value));
    return attempt(event, request.build(), 1, settings.firstDelay());
  }

  private CompletableFuture<Delivery> attempt(WebhookEvent event, HttpRequest request, int tryNumber, Duration wait) {
    String where = "webhook " + event.key() + " to " + settings.shownUrl();
    CompletableFuture<HttpResponse<String>> sent;
    try {
      sent = client.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(Delivery.failed(where + ": " + e));
    }
    return sent.handle((response, error) -> {
      if (error == null && response.statusCode() / 100 == 2) {
        return CompletableFuture.completedFuture(Delivery.sent(where + " accepted (HTTP " + response.statusCode()
            + (tryNumber > 1 ? ", try " + tryNumber : "") + ")"));
      }
      String why = error != null ? describe(error) : "HTTP " + response.statusCode() + snippet(response.body());
      if ((error != null || retryable(response.statusCode())) && tryNumber < settings.tries()) {
        return delays.after(wait).thenCompose(x -> attempt(event, request, tryNumber + 1, wait.multipliedBy(2)));
      }
      return CompletableFuture.completedFuture(Delivery.failed(where + " gave up after " + tryNumber
          + (tryNumber == 1 ? " try: " : " tries: ") + why));
    }).thenCompose(f -> f).exceptionally(e -> Delivery.failed(where + ": " + describe(e)));
  }

  private static boolean retryable(int status) {
    return status >= 500 || status == 408 || status == 429;
  }

  private static String describe(Throwable e) {
    Throwable t = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : " " + m);
  }

  private static String snippet(String body) {
    if (body == null || body.isBlank()) {
      return "";
    }
    String b = body.strip().replaceAll("\\s+", " ");
    return " " + (b.length() <= 120 ? b : b.substring(0, 120) + "…");
  }
}
