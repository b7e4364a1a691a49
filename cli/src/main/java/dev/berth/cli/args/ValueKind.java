package dev.berth.cli.args;

import java.util.List;

/**
 * What the value of an option or a parameter is, read from its label, for the shell to complete:
 * a label listing values ({@code on|off}) is a choice among them, {@code SPEC} and {@code FILE} name
 * a file, {@code WORKDIR} and {@code DIR} a folder, {@code COMMAND} one of the program's commands;
 * anything else ({@code KEY=VALUE}, {@code PORT}) is left to whoever types it. A new option so
 * labelled completes without anything else declared.
 */
enum ValueKind {
  /** One of the values its label lists. */
  CHOICE,
  /** A file. */
  FILE,
  /** A folder. */
  DIRECTORY,
  /** The name of one of the program's commands. */
  COMMAND,
  /** Anything: nothing to offer. */
  ANY;

  /** The kind of a value labelled {@code label}; {@link #ANY} for a flag's null label. */
  static ValueKind of(String label) {
    if (!choices(label).isEmpty()) {
      return CHOICE;
    }
    return label == null ? ANY : switch (label) {
      case "SPEC", "FILE" -> FILE;
      case "WORKDIR", "DIR" -> DIRECTORY;
      case "COMMAND" -> COMMAND;
      default -> ANY;
    };
  }

  /** The values a label lists ({@code on|off}); empty when it names a value instead. */
  static List<String> choices(String label) {
    return label == null || label.indexOf('|') < 0 ? List.of() : List.of(label.split("\\|"));
  }
}
