package dev.berth.cli.args;

/**
 * A command line the command cannot run: an unknown option, a missing value, an extra argument, or
 * a value the command refuses. The message is one line, without the program's name or a pointer to
 * the help: whoever prints it adds those.
 */
public final class BadUsage extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** A bad usage saying {@code message}. */
  public BadUsage(String message) {
    super(message, null, false, false); // reported as one line, never with a stack trace
  }
}
