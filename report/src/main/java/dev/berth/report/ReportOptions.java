package dev.berth.report;

/**
 * How {@link ReportFiles} renders a run.
 *
 * @param title the HTML page heading, or null for the run name
 * @param objective what ranks the sweep, or null to keep submission order
 */
public record ReportOptions(String title, Objective objective) {

  /** No title, no objective. */
  public static ReportOptions defaults() {
    return new ReportOptions(null, null);
  }

  /** A copy ranking the sweep by this objective. */
  public ReportOptions withObjective(Objective objective) {
    return new ReportOptions(title, objective);
  }

  /** A copy with this heading. */
  public ReportOptions withTitle(String title) {
    return new ReportOptions(title, objective);
  }
}
