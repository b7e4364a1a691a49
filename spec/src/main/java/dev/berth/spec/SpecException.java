package dev.berth.spec;

import java.util.Objects;

/**
 * A spec, config file or {@code --set} override that Berth cannot accept. The message is one line,
 * {@code "<file>: <field>: <rule>"}, for example {@code "quickstart.yaml: groups[1].tasks[0].memory:
 * '12 XB' has unknown unit 'XB'; use one of ..."}. When the problem concerns the whole file (it is
 * missing or empty) the field is empty and the message is {@code "<file>: <rule>"}.
 */
public final class SpecException extends Exception {

  private static final long serialVersionUID = 1L;

  private final String file;
  private final String field;
  private final String rule;

  /**
   * Creates the exception.
   *
   * @param file the file as the user named it, or {@code "command line"} for {@code --set}
   * @param field where in the file, e.g. {@code groups[0].tasks[2].cpus}; empty for the whole file
   * @param rule what is wrong and how to fix it
   */
  public SpecException(String file, String field, String rule) {
    super(format(file, field, rule));
    this.file = Objects.requireNonNull(file, "file");
    this.field = Objects.requireNonNull(field, "field");
    this.rule = Objects.requireNonNull(rule, "rule");
  }

  /** The file as the user named it, or {@code "command line"} for {@code --set} overrides. */
  public String file() {
    return file;
  }

  /** Where in the file, e.g. {@code groups[0].tasks[2].cpus}; empty when the whole file is meant. */
  public String field() {
    return field;
  }

  /** What is wrong and, where possible, how to fix it. */
  public String rule() {
    return rule;
  }

  private static String format(String file, String field, String rule) {
    return oneLine(field.isEmpty() ? file + ": " + rule : file + ": " + field + ": " + rule);
  }

  /** The message with control characters escaped ({@code \n}, {@code \\u001b}), so it stays one line. */
  private static String oneLine(String message) {
    StringBuilder b = new StringBuilder(message.length());
    for (char c : message.toCharArray()) {
      switch (c) {
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> b.append(c < 0x20 || c == 0x7f ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return b.toString();
  }
}
