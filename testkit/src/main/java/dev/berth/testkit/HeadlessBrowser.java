package dev.berth.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium for tests that render Berth's pages: found on PATH (tests skip where it is
 * absent), started with a fresh profile and without network side trips, its output kept in a log.
 */
public final class HeadlessBrowser {

  private static final String NAME = "chromium";

  private final Path executable;
  private final Path dir;

  private HeadlessBrowser(Path executable, Path dir) {
    this.executable = executable;
    this.dir = dir;
  }

  /** Chromium on PATH, working in {@code dir} (profile, log); empty where none is installed. */
  public static Optional<HeadlessBrowser> find(Path dir) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String d : path.split(File.pathSeparator)) {
      Path candidate = Path.of(d, NAME);
      if (Files.isExecutable(candidate)) {
        return Optional.of(new HeadlessBrowser(candidate, dir));
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the browser on {@code url} with these extra flags (e.g. {@code --screenshot=FILE},
   * {@code --dump-dom}), waiting up to 90 seconds; what it printed on stdout.
   */
  public String run(String url, String... flags) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(dir, "profile");
    List<String> argv = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--user-data-dir=" + profile));
    argv.addAll(List.of(flags));
    argv.add(url);
    Path out = Files.createTempFile(dir, "browser", ".out");
    Process p = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(log().toFile()).start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("the browser did not finish within 90s; it said:\n" + said());
    }
    return Files.readString(out);
  }

  /**
   * Opens {@code url} in the browser, driven through its DevTools protocol, and waits (up to 60 s)
   * until the page shows an element matching the CSS {@code selector}, as its script builds it; the
   * page's HTML at that moment. For pages that keep a connection open (an event stream), which a
   * run with {@code --virtual-time-budget} would wait for.
   */
  public String awaitShown(String url, String selector) throws Exception {
    Path profile = Files.createTempDirectory(dir, "profile");
    List<String> argv = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--user-data-dir=" + profile, "--remote-debugging-port=0", "about:blank"));
    Process p = new ProcessBuilder(argv).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    CompletableFuture<URI> address = new CompletableFuture<>();
    Thread reader = new Thread(() -> copyLog(p, address), "browser-log");
    reader.setDaemon(true);
    reader.start();
    try (DevTools tools = DevTools.connect(address.get(60, TimeUnit.SECONDS))) {
      Duration bound = Duration.ofSeconds(60);
      String target = tools.send(null, "Target.createTarget", DevTools.params().put("url", "about:blank"), bound)
          .path("result").path("targetId").asText();
      String session = tools.send(null, "Target.attachToTarget", DevTools.params().put("targetId", target)
          .put("flatten", true), bound).path("result").path("sessionId").asText();
      tools.send(session, "Page.navigate", DevTools.params().put("url", url), bound);
      String expression = SHOWN.replace("SELECTOR", new ObjectMapper().writeValueAsString(selector));
      JsonNode answer = null;
      for (int tries = 0; tries < 5; tries++) { // an evaluation still in the blank page ends as it is replaced
        answer = tools.send(session, "Runtime.evaluate", DevTools.params().put("expression", expression)
            .put("awaitPromise", true).put("returnByValue", true), bound);
        JsonNode value = answer.path("result").path("result").path("value");
        if (value.isTextual()) {
          return value.asText();
        }
      }
      throw new AssertionError("the page never showed " + selector + ": " + answer + "\n" + said());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the page did not show " + selector + " within 60s; the browser said:\n" + said(), e);
    } finally {
      p.destroy();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** Resolves, in a page that is not blank, with the page's HTML once it has an element matching SELECTOR. */
  private static final String SHOWN = "new Promise(resolve => {"
      + " const check = () => { if (location.href !== 'about:blank' && document.querySelector(SELECTOR)) {"
      + " resolve(document.documentElement.outerHTML); return true; } return false; };"
      + " if (!check()) { new MutationObserver(check).observe(document, { subtree: true, childList: true,"
      + " attributes: true }); } })";

  /** Copies the browser's stderr to its log, handing over the DevTools address it announces. */
  private void copyLog(Process p, CompletableFuture<URI> address) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8));
        Writer log = Files.newBufferedWriter(log(), StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
      String line;
      while ((line = in.readLine()) != null) {
        log.write(line + "\n");
        log.flush();
        int at = line.indexOf("ws://");
        if (line.startsWith("DevTools listening on ") && at >= 0) {
          address.complete(URI.create(line.substring(at).trim()));
        }
      }
    } catch (IOException e) {
      // the browser is gone
    }
    address.completeExceptionally(new IOException("the browser ended without a DevTools address"));
  }

  /** What the browser wrote on stderr so far, for failure messages. */
  public String said() throws IOException {
    return Files.exists(log()) ? Files.readString(log()) : "";
  }

  private Path log() {
    return dir.resolve("browser.log");
  }
}
