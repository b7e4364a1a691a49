package dev.berth.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.testkit.HeadlessBrowser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Renders the report in a headless browser, proving it opens from disk; skipped where none is installed. */
class HtmlScreenshotTest {

  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir Path dir;

  @Test
  void theReportRendersInAHeadlessBrowser() throws Exception {
    Optional<HeadlessBrowser> browser = HeadlessBrowser.find(dir);
    assumeTrue(browser.isPresent(), "chromium is not on PATH; install it to screenshot the HTML report");
    Path page = dir.resolve("report.html");
    Files.writeString(page, HtmlReport.render(SampleRun.report(),
        HtmlOptions.defaults().withResults(SampleRun.taskResults()).withObjective(Objective.max("val_acc"))));
    Path shot = dir.resolve("report.png");

    browser.get().run(page.toUri().toString(), "--screenshot=" + shot, "--window-size=1280,2000");

    assertThat(shot).as("screenshot; browser said:%n%s", browser.get().said()).exists();
    byte[] png = Files.readAllBytes(shot);
    assertThat(png).startsWith(PNG_MAGIC);
    // A blank 1280x2000 page compresses to a few kilobytes; tables, text and charts make it far larger.
    assertThat(png.length).isGreaterThan(40_000);
  }
}
