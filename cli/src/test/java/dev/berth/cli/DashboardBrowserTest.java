package dev.berth.cli;

import static dev.berth.cli.RunFiles.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.testkit.HeadlessBrowser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the dashboard of a live run, opened in headless Chromium with the link {@code berth
 * serve} prints, shows a task change state without a reload, and leaves a screenshot in target/dashboard.png
 * (the one in docs); skipped where Chromium is absent.
 */
class DashboardBrowserTest {

  @TempDir Path dir;

  private static void touch(Path file) {
    try {
      Files.createFile(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theRunPageFollowsATaskChangingStateWithoutAReload() throws Exception {
    Optional<HeadlessBrowser> browser = HeadlessBrowser.find(dir);
    assumeTrue(browser.isPresent(), "chromium is not on PATH; install it to open the dashboard");
    Path gate = dir.resolve("gate");
    Path spec = spec(dir, "dashboard", """
        gpus: sim:2x24GiB
        config:
          scheduler: {default-memory: 1MiB}
          remain-limit: {memory: 1MiB, cuda-memory: 0}
          utilization-limit: {cpu: 1.0, cuda-memory: 1.0}
        groups:
          - name: prepare
            cpus: 0.1
            tasks:
              - id: make-data
                command: [sh, -c, "echo 'writing <data> & \\"shards\\"' >&2; while [ -d %s ] && [ ! -e %s ]; do sleep 0.05; done; sleep 1"]
              - id: check-inputs
                command: [sh, -c, "echo 'reading inputs' >&2; echo 'ValueError: <script>alert(1)</script> in shard 3' >&2; exit 1"]
          - name: train
            cpus: 0.1
            memory: 64MiB
            gpu-memory: 6GiB
            tasks:
              - id: "train-{lr}"
                matrix: {lr: ["0.1", "0.03", "0.01", "0.003"]}
                command: [sh, -c, "sleep 3; echo '{\\"loss\\": {lr}, \\"note\\": \\"<b>lr {lr}</b>\\"}' > result.json"]
        """.formatted(dir, gate));
    try (LiveDashboard live = LiveDashboard.start(dir, spec)) {
      live.awaitStatus(s -> LiveDashboard.state(s, "make-data").equals("RUNNING"));
      // The runs page keeps its event stream open, so it never finishes loading: it is driven instead.
      CompletableFuture<String> runs = CompletableFuture.supplyAsync(() -> {
        try {
          return browser.get().awaitShown(live.uri("/?token=" + LiveDashboard.TOKEN).toString(),
              "tr[data-run=\"" + live.runId + "\"][data-state=\"failed\"]");
        } catch (Exception e) {
          throw new CompletionException(e);
        }
      });
      String page = live.uri("/runs/" + live.runId + "?token=" + LiveDashboard.TOKEN).toString();
      // make-data ends a second after the page has asked for both its streams (the run's events, which
      // start with a status showing make-data running, and its memory samples): however slowly the
      // browser starts, it connects while make-data runs and receives the change.
      live.catalog.after(2, () -> touch(gate));

      // Virtual time waits while the event stream is open, which it is until the run ended.
      String dom;
      try {
        dom = browser.get().run(page, "--dump-dom", "--virtual-time-budget=5000", "--window-size=1280,900");
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\nthe run: " + live.json("/api/runs/" + live.runId) + "\n"
            + live.berth.output(), e);
      }

      assertThat(dom).as("the page; the browser said:%n%s", browser.get().said())
          .contains("data-task=\"make-data\" data-status=\"SUCCEEDED\"")
          .contains("make-data: RUNNING → ")
          .as("the last lines of a failed task's stderr, as text")
          .contains("ValueError: &lt;script&gt;alert(1)&lt;/script&gt; in shard 3").doesNotContain("<script>alert")
          .as("the sweep table, with the matrix values and results")
          .contains("id=\"sweep\"").contains("data-key=\"p:lr\"").contains("data-key=\"r:loss\"")
          .contains("&lt;b&gt;lr 0.003&lt;/b&gt;").doesNotContain("<b>lr")
          .as("the attempt timeline").contains("id=\"timeline\"")
          .contains("<title>check-inputs · attempt 1 · FAILED")
          .as("memory over the run, per device").contains("data-series=\"host memory\"")
          .contains("data-series=\"GPU memory on cuda:0\"");

      // The runs list, opened while the run went on, shows it ended when its event stream says so.
      assertThat(runs.get(120, TimeUnit.SECONDS)).contains(">dashboard</a>");

      // The run has ended: its page shows the final state, as in docs/dashboard.png.
      Path shot = Files.createDirectories(Path.of("target")).toAbsolutePath().resolve("dashboard.png");
      browser.get().run(page, "--screenshot=" + shot, "--virtual-time-budget=3000", "--window-size=1280,1500");
      assertThat(Files.size(shot)).as("a screenshot with tables and text").isGreaterThan(20_000);
    }
  }
}
