package dev.berth.client;

import dev.berth.core.model.RunSpec;
import dev.berth.runtime.engine.RunListener;
import dev.berth.session.LocalSession;
import dev.berth.session.RunFinishedException;
import dev.berth.session.SessionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Opens the {@link LocalSession} a {@link Berth} stands on, and words its refusals as the Java API's exceptions. */
final class SessionOpening {

  private SessionOpening() {}

  /**
   * Opens the session's run, kept open for submissions: its spec is the options' name, folder,
   * configuration, GPUs and objective, with no group yet (or the groups of the session it resumes).
   *
   * @param registry the listener that feeds the handles
   */
  static LocalSession open(BerthOptions options, RunListener registry) {
    RunSpec spec = options.carriedBy(new RunSpec(options.name(), options.workdir().toString(), options.config(),
        List.of(), true, options.gpus(), RunBuilder.reporting(options.objective().orElse(null))));
    try {
      return LocalSession.open(options.sessionOptions().spec(spec).listener(registry).build());
    } catch (RunFinishedException e) {
      throw new IllegalStateException("the session folder " + options.workdir().toAbsolutePath().normalize()
          + " holds session " + e.run() + ", which finished already (" + e.status() + " at " + e.finishedAt()
          + "; its report is " + e.reportJson() + "). Use BerthOptions.builder().retry(RetrySelection.everything()) to"
          + " run what did not succeed again, fresh(true) to move it aside and start a new session there, or give the"
          + " session another name or workdir", e);
    } catch (SessionException e) {
      boolean startOver = e.reason() == SessionException.Reason.SPEC_UNREADABLE
          || e.reason() == SessionException.Reason.JOURNAL_LOST;
      String hint = startOver ? "; use BerthOptions.builder().fresh(true) to start over"
          : e.reason() == SessionException.Reason.WORKDIR_NOT_EMPTY ? " (BerthOptions.builder().allowNonEmptyWorkdir(true))"
          : "";
      throw new IllegalStateException(e.getMessage() + hint, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the session folder " + options.workdir(), e);
    }
  }
}
