package dev.berth.cli.args;

import java.util.Objects;

/**
 * One positional parameter a command accepts ({@code SPEC}, {@code [WORKDIR]}, {@code [TASK...]}),
 * matched in the order the command declares them.
 */
public final class Parameter {

  /** How many arguments a parameter takes. */
  enum Count {
    /** Exactly one. */
    ONE,
    /** None or one. */
    OPTIONAL,
    /** Any number, including none: every argument left. */
    REST
  }

  private final String label;
  private final String description;
  private final Count count;

  private Parameter(String label, String description, Count count) {
    this.label = Objects.requireNonNull(label, "label");
    this.description = Objects.requireNonNull(description, "description");
    this.count = count;
  }

  /** A parameter that must be given. */
  public static Parameter required(String label, String description) {
    return new Parameter(label, description, Count.ONE);
  }

  /** A parameter that may be left out. */
  public static Parameter optional(String label, String description) {
    return new Parameter(label, description, Count.OPTIONAL);
  }

  /** Every argument left after the parameters before it, possibly none. */
  public static Parameter rest(String label, String description) {
    return new Parameter(label, description, Count.REST);
  }

  /** The label, as the help and messages name it. */
  public String label() {
    return label;
  }

  /** What the parameter is, as the help says it. */
  public String description() {
    return description;
  }

  Count count() {
    return count;
  }

  /** How the synopsis shows it: {@code SPEC}, {@code [WORKDIR]}, {@code [TASK...]}. */
  String synopsis() {
    return switch (count) {
      case ONE -> label;
      case OPTIONAL -> "[" + label + "]";
      case REST -> "[" + label + "...]";
    };
  }

  @Override
  public String toString() {
    return synopsis();
  }
}
