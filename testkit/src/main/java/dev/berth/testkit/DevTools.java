package dev.berth.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection to a browser's DevTools protocol: sends commands (to the browser, or to a page's
 * session) and hands back each one's answer, matched by id.
 */
final class DevTools implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<Integer, CompletableFuture<JsonNode>> waiting = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final WebSocket socket;

  private DevTools(URI browser) throws Exception {
    socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(browser, new Listener())
        .get(60, TimeUnit.SECONDS);
  }

  /** Connects to the browser's DevTools address ({@code ws://127.0.0.1:PORT/devtools/browser/ID}). */
  static DevTools connect(URI browser) throws Exception {
    return new DevTools(browser);
  }

  /**
   * Sends {@code method} with {@code params} (to the page of {@code session}, or the browser when
   * null) and waits up to {@code timeout} for its answer: the whole message, with {@code result} or
   * {@code error}.
   */
  JsonNode send(String session, String method, ObjectNode params, Duration timeout) throws Exception {
    int id = ids.incrementAndGet();
    ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
    message.set("params", params);
    if (session != null) {
      message.put("sessionId", session);
    }
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    waiting.put(id, answer);
    socket.sendText(JSON.writeValueAsString(message), true).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** An empty parameter object to fill. */
  static ObjectNode params() {
    return JSON.createObjectNode();
  }

  @Override
  public void close() {
    socket.abort();
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        try {
          JsonNode message = JSON.readTree(partial.toString());
          CompletableFuture<JsonNode> answer = message.has("id") ? waiting.remove(message.get("id").asInt()) : null;
          if (answer != null) {
            answer.complete(message);
          }
        } catch (Exception e) {
          // not a message of the protocol: nothing waits for it
        }
        partial.setLength(0);
      }
      webSocket.request(1);
      return null;
    }
  }
}
