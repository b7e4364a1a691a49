package dev.berth.report;

import java.util.Objects;

/**
 * What the HTML report shows besides the run itself.
 *
 * @param title the page heading, or null for the run name
 * @param results task results for the success tables and the sweep
 * @param objective what ranks the sweep, or null to keep submission order
 * @param logs which tasks' log files are missing, so that they are not linked
 */
public record HtmlOptions(String title, TaskResults results, Objective objective, TaskLogs logs) {

  /** Checks the results and the logs are given. */
  public HtmlOptions {
    Objects.requireNonNull(results, "results (use TaskResults.empty())");
    Objects.requireNonNull(logs, "logs (use TaskLogs.ASSUMED)");
  }

  /** No title, no results, no objective, every log taken as there. */
  public static HtmlOptions defaults() {
    return new HtmlOptions(null, TaskResults.empty(), null, TaskLogs.ASSUMED);
  }

  /** A copy with this heading. */
  public HtmlOptions withTitle(String title) {
    return new HtmlOptions(title, results, objective, logs);
  }

  /** A copy with these results. */
  public HtmlOptions withResults(TaskResults results) {
    return new HtmlOptions(title, results, objective, logs);
  }

  /** A copy ranking the sweep by this objective. */
  public HtmlOptions withObjective(Objective objective) {
    return new HtmlOptions(title, results, objective, logs);
  }
}
