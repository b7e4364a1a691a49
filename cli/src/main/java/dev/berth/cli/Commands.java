package dev.berth.cli;

import java.util.List;

/** The commands of {@code berth}, by name; a command's object (and its syntax) is made only when asked for. */
final class Commands {

  /** Every command's name, in the order {@code berth --help} lists them. */
  static final List<String> NAMES = List.of("run", "resume", "status", "report", "validate", "cancel", "retry",
      "submit", "queue", "logs", "wait", "devices", "config", "ps", "serve", "completion", "help");

  private Commands() {}

  /** The command called {@code name}, or null when there is none. */
  static BerthCommand named(String name) {
    return switch (name) {
      case "run" -> new RunCommand();
      case "resume" -> new ResumeCommand();
      case "status" -> new StatusCommand();
      case "report" -> new ReportCommand();
      case "validate" -> new ValidateCommand();
      case "cancel" -> new CancelCommand();
      case "retry" -> new RetryCommand();
      case "submit" -> new SubmitCommand();
      case "queue" -> new QueueCommand();
      case "logs" -> new LogsCommand();
      case "wait" -> new WaitCommand();
      case "devices" -> new DevicesCommand();
      case "config" -> new ConfigCommand();
      case "ps" -> new PsCommand();
      case "serve" -> new ServeCommand();
      case "completion" -> new CompletionCommand();
      case "help" -> new HelpCommand();
      default -> null;
    };
  }
}
