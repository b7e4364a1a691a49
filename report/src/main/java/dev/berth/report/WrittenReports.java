package dev.berth.report;

import java.nio.file.Path;
import java.util.List;

/**
 * The files {@link ReportFiles#writeAll} wrote, and what it could not read on the way.
 *
 * @param html {@code report.html}
 * @param markdown {@code report.md}
 * @param csv {@code results.csv}
 * @param warnings one line per task {@code result.json} that could not be read
 */
public record WrittenReports(Path html, Path markdown, Path csv, List<String> warnings) {

  /** Copies the list. */
  public WrittenReports {
    warnings = List.copyOf(warnings);
  }

  /** The three paths, HTML first. */
  public List<Path> paths() {
    return List.of(html, markdown, csv);
  }
}
