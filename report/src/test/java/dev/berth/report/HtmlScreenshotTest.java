package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the report in a headless browser, proving it opens from disk; skipped where none is installed. */
class HtmlScreenshotTest {

  private static final String BROWSER = "chromium";
  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir Path dir;

  @Test
  void theReportRendersInAHeadlessBrowser() throws Exception {
    Path browser = onPath(BROWSER);
    assumeTrue(browser != null, BROWSER + " is not on PATH; install it to screenshot the HTML report");
    Path page = dir.resolve("report.html");
    Files.writeString(page, HtmlReport.render(SampleRun.report(),
        HtmlOptions.defaults().withResults(SampleRun.taskResults()).withObjective(Objective.max("val_acc"))));
    Path shot = dir.resolve("report.png");
    Path profile = Files.createDirectory(dir.resolve("profile"));

    Process p = new ProcessBuilder(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--user-data-dir=" + profile, "--screenshot=" + shot, "--window-size=1280,2000", page.toUri().toString()))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("browser.log").toFile())
        .start();
    boolean ended = p.waitFor(90, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    assertThat(ended).as("browser finished within 90s").isTrue();
    assertThat(shot).as("screenshot; browser said:%n%s", log()).exists();
    byte[] png = Files.readAllBytes(shot);
    assertThat(png).startsWith(PNG_MAGIC);
    // A blank 1280x2000 page compresses to a few kilobytes; tables, text and charts make it far larger.
    assertThat(png.length).isGreaterThan(40_000);
  }

  private String log() throws IOException {
    Path log = dir.resolve("browser.log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private static Path onPath(String name) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String d : path.split(File.pathSeparator)) {
      Path candidate = Path.of(d, name);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
