package dev.berth.session;

/**
 * A run that cannot be opened as asked: the folder is held by another run, the journal is missing,
 * damaged or disagrees with the spec, or a setting is not usable. Nothing of the run was started
 * and the folder is released; the message says why in one line, in words a front door can print
 * as they are, adding its own hint for {@link #reason()}.
 */
public class SessionException extends Exception {

  private static final long serialVersionUID = 1L;

  /** What kind of refusal, for the hint a front door adds (the flag or option that helps). */
  public enum Reason {
    /** Anything else: the message says all. */
    REFUSED,
    /** The spec the run started with cannot be read from its journal: only starting over helps. */
    SPEC_UNREADABLE,
    /** The spec differs from the one the run started with, and the options said to refuse that. */
    SPEC_CHANGED,
    /** The run finished already: see {@link RunFinishedException}. */
    FINISHED,
    /**
     * The journal is missing, empty or ends before what was committed, while the run's files are
     * there: only restoring the journal or starting over helps.
     */
    JOURNAL_LOST,
    /**
     * The folder holds files but never held a run, and the options did not allow a run among them
     * ({@link SessionOptions.Builder#allowNonEmptyWorkdir}).
     */
    WORKDIR_NOT_EMPTY
  }

  private final Reason reason;

  /** A refusal with this message. */
  public SessionException(String message) {
    this(Reason.REFUSED, message, null);
  }

  /** A refusal of a kind, with this message and cause (or null). */
  public SessionException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  /** What kind of refusal. */
  public Reason reason() {
    return reason;
  }
}
