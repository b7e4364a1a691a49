package dev.berth.report;

import dev.berth.core.report.RunReport;
import dev.berth.os.AtomicFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Writes {@code report.html}, {@code report.md} and {@code results.csv} into a run folder, each atomically
 * (temporary file, flushed to disk, renamed over the old one); the page on a thread of its own, as the
 * three of a large run take a second of CPU. {@code report.json} is written by {@link ReportJson}, which
 * the engine calls as the run ends, before these three.
 */
public final class ReportFiles {

  /** The JSON report's file name. */
  public static final String JSON = "report.json";

  /** The HTML report's file name. */
  public static final String HTML = "report.html";

  /** The Markdown report's file name. */
  public static final String MARKDOWN = "report.md";

  /** The results table's file name. */
  public static final String CSV = "results.csv";

  private ReportFiles() {}

  /**
   * Reads the tasks' {@code result.json} files and which logs are there, renders the three reports and writes them.
   *
   * @param runDir the run's folder, where the task folders are and the reports go
   * @throws IOException when a report cannot be written; a task's unreadable result is only a warning
   */
  public static WrittenReports writeAll(RunReport report, Path runDir, ReportOptions options) throws IOException {
    Files.createDirectories(runDir);
    TaskResults results = TaskResults.read(runDir, report);
    HtmlOptions html = new HtmlOptions(options.title(), results, options.objective(), TaskLogs.read(runDir, report));
    ReportViews views = ReportViews.of(report, results.byTask(), options.objective());
    Path htmlFile = runDir.resolve(HTML);
    Path mdFile = runDir.resolve(MARKDOWN);
    Path csvFile = runDir.resolve(CSV);
    // The page on a thread of its own while this one writes the other two: a run's end waits for all three.
    FutureTask<Void> page = new FutureTask<>(() -> {
      AtomicFiles.write(htmlFile, HtmlReport.renderWith(report, html, views));
      return null;
    });
    Thread pageThread = new Thread(page, "berth-report-html");
    pageThread.setDaemon(true);
    pageThread.start();
    try {
      AtomicFiles.write(mdFile, MarkdownReport.renderWith(report, results, views));
      AtomicFiles.write(csvFile, CsvResults.render(report, results.byTask()));
    } catch (IOException | RuntimeException | Error e) {
      try {
        awaitPage(page);
      } catch (IOException | RuntimeException | Error alsoThePage) {
        e.addSuppressed(alsoThePage);
      }
      throw e;
    }
    awaitPage(page);
    return new WrittenReports(htmlFile, mdFile, csvFile, results.warnings());
  }

  private static void awaitPage(FutureTask<Void> page) throws IOException {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          page.get();
          return;
        } catch (InterruptedException e) {
          interrupted = true; // the page is being written: it is waited for whole
        }
      }
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
