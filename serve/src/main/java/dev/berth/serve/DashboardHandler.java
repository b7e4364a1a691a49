package dev.berth.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.core.scheduling.RetrySelection;
import dev.berth.session.HostRuns;
import dev.berth.session.LiveRuns;
import dev.berth.session.SessionException;
import dev.berth.spi.SharedReservations.RunEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * The dashboard's routes: its pages and assets, and the JSON API under {@code /api/runs} (see
 * docs/api.md). A run is named by its host ledger id; its workdir comes from the ledger.
 */
final class DashboardHandler extends Handler.Abstract {

  private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);
  /**
   * The largest body of a change: more is never read (a JSON list of task selectors fits many times).
   * Also the largest body of a refused change that is read before the answer (see {@link #discardSmallBody}).
   */
  private static final int MAX_BODY_BYTES = 64 * 1024;

  private final RunCatalog catalog;
  private final Access access;
  private final HostNames names;
  private final RunApi api;
  private final RunActions actions;
  private final Streams streams = new Streams();

  DashboardHandler(RunCatalog catalog, Access access, HostNames names, RunApi api, RunActions actions) {
    this.catalog = catalog;
    this.access = access;
    this.names = names;
    this.api = api;
    this.actions = actions;
  }

  /** Ends the open event streams. */
  void closeStreams() {
    streams.closeAll();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    String path = Request.getPathInContext(request);
    boolean post = HttpMethod.POST.is(request.getMethod());
    if (!post && !HttpMethod.GET.is(request.getMethod())) {
      return reply(response, callback, 405, error("only GET and POST"));
    }
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put("Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    response.getHeaders().put("Referrer-Policy", "no-referrer");
    if (!names.named(request)) {
      return reply(response, callback, 421, error("the Host header must name this server: its address or"
          + " localhost, with its port or without"));
    }
    if (path.startsWith("/assets/")) {
      Optional<String> type = Assets.type(path.substring("/assets/".length()));
      if (type.isEmpty() || post) {
        return reply(response, callback, 404, error("no such asset"));
      }
      return send(response, callback, 200, type.get(), Assets.read(path.substring("/assets/".length())));
    }
    if (!post && !path.startsWith("/api/")) {
      String token = Request.extractQueryParameters(request).getValue("token");
      if (token != null) {
        return firstLoad(request, response, callback, path, token);
      }
    }
    Access.Verdict verdict = access.check(request, post);
    if (post && verdict != Access.Verdict.ALLOWED) {
      discardSmallBody(request);
    }
    switch (verdict) {
      case NO_TOKEN:
        return reply(response, callback, 401, error("a token is needed: the link berth serve printed, or"
            + " Authorization: Bearer with the token from its token file"));
      case WRONG_TOKEN:
        return reply(response, callback, 403, error("wrong token"));
      case CROSS_SITE:
        return reply(response, callback, 403, error("a change must come from the dashboard's own pages"));
      default:
        break;
    }
    if (!path.startsWith("/api/")) {
      Optional<RunEntry> only = post || !path.equals("/") ? Optional.empty() : catalog.only();
      if (only.isPresent()) { // the dashboard of one run opens on that run, not on a list of one
        Response.sendRedirect(request, response, callback, 303,
            "/runs/" + URLEncoder.encode(only.get().run(), StandardCharsets.UTF_8).replace("+", "%20"), false);
        return true;
      }
      return post ? reply(response, callback, 404, error("no such page"))
          : send(response, callback, 200, Assets.type("index.html").get(), Assets.read("index.html"));
    }
    return api(request, response, callback, path, post);
  }

  /** {@code ?token=} on a page: keeps the token in a cookie and loads the page again without it in the URL. */
  private boolean firstLoad(Request request, Response response, Callback callback, String path, String token) {
    if (!access.matches(token)) {
      return reply(response, callback, 403, error("wrong token"));
    }
    Response.addCookie(response, access.cookie(Request.getLocalPort(request)));
    Response.sendRedirect(request, response, callback, 303, path, false);
    return true;
  }

  private boolean api(Request request, Response response, Callback callback, String path, boolean post)
      throws IOException {
    String[] parts = path.substring(1).split("/", -1); // api, runs, {run}, ...
    if (parts.length < 2 || !parts[1].equals("runs")) {
      return reply(response, callback, 404, error("no such API"));
    }
    if (parts.length == 2 && !post) {
      return reply(response, callback, 200, HostRuns.json(catalog.runs()));
    }
    if (parts.length == 3 && parts[2].equals("events") && !post) {
      EventStream stream = new EventStream(catalog.watched(), () -> Optional.of(HostRuns.json(catalog.runs())),
          "runs", () -> false, KEEP_ALIVE);
      return stream(request, response, callback, stream);
    }
    Optional<RunEntry> run = catalog.find(parts[2]);
    if (run.isEmpty()) {
      return reply(response, callback, 404, error("no such run on this host"));
    }
    RunEntry entry = run.get();
    String rest = String.join("/", Arrays.copyOfRange(parts, 3, parts.length));
    if (post) {
      return act(request, response, callback, entry, rest);
    }
    if (rest.isEmpty()) {
      return reply(response, callback, 200, api.run(entry));
    }
    if (rest.equals("tasks")) {
      return reply(response, callback, 200, api.tasks(entry));
    }
    if (rest.equals("charts")) {
      return reply(response, callback, 200, api.charts(entry));
    }
    Path workdir = Path.of(entry.workdir());
    if (rest.equals("events")) {
      EventStream stream = new EventStream(List.of(workdir.resolve(".berth")),
          () -> api.status(entry).map(s -> (JsonNode) s), "status", () -> !LiveRuns.isLive(workdir), KEEP_ALIVE);
      return stream(request, response, callback, stream);
    }
    if (rest.equals("samples")) {
      return reply(response, callback, 200, RunApi.samples(workdir, new long[1]));
    }
    if (rest.equals("samples/events")) {
      long[] from = new long[1];
      EventStream stream = new EventStream(List.of(workdir),
          () -> Optional.of(RunApi.samples(workdir, from)).filter(s -> !s.get("samples").isEmpty()).map(s -> s),
          "samples", () -> !LiveRuns.isLive(workdir), KEEP_ALIVE);
      return stream(request, response, callback, stream);
    }
    if (parts.length >= 6 && parts[3].equals("tasks") && parts[5].equals("log")) {
      Fields query = Request.extractQueryParameters(request);
      boolean stdout = "stdout".equals(query.getValue("stream"));
      Integer attempt;
      try {
        attempt = query.getValue("attempt") == null ? null : Integer.valueOf(query.getValue("attempt"));
      } catch (NumberFormatException e) {
        return reply(response, callback, 400, error("attempt: must be a number"));
      }
      Optional<RunApi.Log> log = api.log(entry, parts[4], stdout, attempt);
      if (log.isEmpty()) {
        return reply(response, callback, 404, error("no such task in this run, or no such attempt of it"));
      }
      if (parts.length == 6) {
        return reply(response, callback, 200, RunApi.tail(log.get(), 200));
      }
      if (parts.length == 7 && parts[6].equals("events")) {
        EventStream stream = new EventStream(List.of(log.get().path().getParent(), workdir.resolve(".berth")),
            () -> Optional.of(RunApi.tail(log.get(), 200)), "log", () -> !LiveRuns.isLive(workdir), KEEP_ALIVE);
        return stream(request, response, callback, stream);
      }
    }
    return reply(response, callback, 404, error("no such API"));
  }

  private boolean act(Request request, Response response, Callback callback, RunEntry entry, String rest)
      throws IOException {
    Path workdir = Path.of(entry.workdir());
    List<String> tasks = new ArrayList<>();
    String reason = "cancelled from the dashboard";
    boolean failed = false;
    boolean cancelled = false;
    Optional<String> read = body(request);
    if (read.isEmpty()) {
      return reply(response, callback, 413, error("the body is larger than " + MAX_BODY_BYTES / 1024
          + " KiB; a change names its tasks in a few lines of JSON"));
    }
    String body = read.get();
    if (!body.isBlank()) {
      JsonNode json;
      try {
        json = RunApi.JSON.readTree(body);
      } catch (IOException e) {
        return reply(response, callback, 400, error("the body is not JSON"));
      }
      if (json.has("tasks") && !json.get("tasks").isArray()) {
        return reply(response, callback, 400, error("tasks: must be an array of ids, globs or group:NAME"));
      }
      json.path("tasks").forEach(t -> tasks.add(t.asText()));
      reason = json.path("reason").asText(reason);
      failed = json.path("failed").asBoolean(false);
      cancelled = json.path("cancelled").asBoolean(false);
    }
    boolean live = LiveRuns.isLive(workdir);
    if (rest.equals("cancel")) {
      if (!live) {
        return reply(response, callback, 409, error("the run is not live; nothing to cancel"));
      }
      actions.cancel(workdir, tasks, reason);
      return reply(response, callback, 202, RunApi.JSON.createObjectNode().put("asked", "cancel")
          .set("tasks", RunApi.JSON.valueToTree(tasks)));
    }
    if (rest.equals("retry")) {
      if (live) {
        return reply(response, callback, 409, error("the run is still live; retry it once it ended"));
      }
      try {
        actions.retry(workdir, new RetrySelection(tasks, failed, cancelled));
      } catch (SessionException e) {
        return reply(response, callback, 409, error(e.getMessage()));
      }
      return reply(response, callback, 202, RunApi.JSON.createObjectNode().put("asked", "retry")
          .set("tasks", RunApi.JSON.valueToTree(tasks)));
    }
    return reply(response, callback, 404, error("no such action"));
  }

  private boolean stream(Request request, Response response, Callback callback, EventStream stream) {
    Optional<Streams.Place> place;
    try {
      place = streams.admit(client(request));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      place = Optional.empty();
    }
    if (place.isEmpty()) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "10");
      return reply(response, callback, 503, error("too many event streams open: at most " + Streams.MOST
          + " in all and " + Streams.MOST_PER_CLIENT + " from one client; close some, or ask the API"));
    }
    response.setStatus(200);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    try (Streams.Place held = place.get(); OutputStream out = Content.Sink.asOutputStream(response)) {
      stream.run(out, held);
      callback.succeeded();
    } catch (IOException e) {
      callback.failed(e); // the client left
    }
    return true;
  }

  /**
   * Who asks, for the streams each may hold: the address it comes from, and whether it holds the
   * token, so that readers let in by {@code --public-read} cannot take the streams of the token's holder
   * on the same machine.
   */
  private String client(Request request) {
    return Request.getRemoteAddr(request) + (access.presentsToken(request) ? " with the token" : "");
  }

  /**
   * The body of a change as text; empty when it is larger than {@link #MAX_BODY_BYTES}, found from its
   * length when it says one, else by reading one byte past the limit and no further.
   */
  private static Optional<String> body(Request request) throws IOException {
    long length = request.getLength();
    if (length > MAX_BODY_BYTES) {
      return Optional.empty();
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
      return bytes.length > MAX_BODY_BYTES ? Optional.empty() : Optional.of(new String(bytes, StandardCharsets.UTF_8));
    }
  }

  private static JsonNode error(String message) {
    return RunApi.JSON.createObjectNode().put("error", message);
  }

  /**
   * Reads and drops the body of a change that is refused, when it is small: Jetty closes a connection
   * whose request body was left unread, and a client still sending that body then gets a reset
   * instead of the answer. A large body is left unread, and its connection closed.
   */
  private static void discardSmallBody(Request request) {
    long length = request.getLength();
    if (length < 0 || length > MAX_BODY_BYTES) {
      return;
    }
    try {
      Content.Source.consumeAll(request);
    } catch (IOException e) {
      // the answer still goes out; the connection may close after it
    }
  }

  private static boolean reply(Response response, Callback callback, int status, JsonNode json) {
    try {
      return send(response, callback, status, "application/json; charset=utf-8",
          RunApi.JSON.writeValueAsBytes(json));
    } catch (IOException e) {
      callback.failed(e);
      return true;
    }
  }

  private static boolean send(Response response, Callback callback, int status, String type, byte[] body) {
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
