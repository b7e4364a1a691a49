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
        config: {scheduler: {default-memory: 1MiB}, remain-limit: {memory: 1MiB}, utilization-limit: {cpu: 1.0}}
        groups:
          - name: prepare
            cpus: 0.1
            tasks:
              - id: make-data
                command: [sh, -c, "echo 'writing <data> & \\"shards\\"' >&2; while [ -d %s ] && [ ! -e %s ]; do sleep 0.05; done"]
          - name: train
            cpus: 0.1
            tasks:
              - id: "train-{lr}"
                matrix: {lr: ["0.1", "0.01", "0.001"]}
                command: [sh, -c, "sleep 2"]
        """.formatted(dir, gate));
    try (LiveDashboard live = LiveDashboard.start(dir, spec)) {
      live.awaitStatus(s -> LiveDashboard.state(s, "make-data").equals("RUNNING"));
      String page = live.uri("/runs/" + live.runId + "?token=" + LiveDashboard.TOKEN).toString();
      // make-data ends once the page has asked for the event stream and then, having shown a status with
      // make-data running, for the run: however slowly the browser starts, it sees the change.
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
          .contains("make-data: RUNNING → ");

      // The run has ended: its page shows the final state, as in docs/dashboard.png.
      Path shot = Files.createDirectories(Path.of("target")).toAbsolutePath().resolve("dashboard.png");
      browser.get().run(page, "--screenshot=" + shot, "--virtual-time-budget=3000", "--window-size=1280,900");
      assertThat(Files.size(shot)).as("a screenshot with tables and text").isGreaterThan(20_000);
    }
  }
}
