package dev.berth.session;

import dev.berth.core.report.RunStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The folder holds a run that finished already: it is not run again (a front door offers to start
 * it over). Its reports are on disk: when the scheduler that finished it stopped before writing
 * them, they were rebuilt from the journal before this was thrown.
 */
public final class RunFinishedException extends SessionException {

  private static final long serialVersionUID = 1L;

  private final String run;
  private final RunStatus status;
  private final Instant finishedAt;
  private final Path reportJson;
  private final String unapplied;

  /**
   * @param unapplied the changes of a spec given now that the run was asked to leave aside (it keeps
   *     the spec it ran), in one line; null when the spec given is the run's
   */
  RunFinishedException(Path runDir, String run, RunStatus status, Instant finishedAt, Path reportJson,
      String unapplied) {
    super(Reason.FINISHED, runDir + " holds " + run + ", which finished already (" + status + " at " + finishedAt
        + "; its report is " + reportJson + ")" + (unapplied == null ? ""
        : "; the spec given changed (" + unapplied + ") and was left aside, as asked"), null);
    this.run = run;
    this.status = status;
    this.finishedAt = finishedAt;
    this.reportJson = reportJson;
    this.unapplied = unapplied;
  }

  /** The changes of the spec given now that were left aside ({@code --allow-changed=stored}), in one line. */
  public Optional<String> unapplied() {
    return Optional.ofNullable(unapplied);
  }

  /** The run's name. */
  public String run() {
    return run;
  }

  /** How it ended. */
  public RunStatus status() {
    return status;
  }

  /** When it ended. */
  public Instant finishedAt() {
    return finishedAt;
  }

  /** Its {@code report.json}. */
  public Path reportJson() {
    return reportJson;
  }
}
