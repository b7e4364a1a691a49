package dev.berth.cli.args;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One option a command accepts, as declared once and shared by every command that takes it:
 * its names ({@code --help} and {@code -h}), whether it takes a value and the value's label
 * ({@code FILE}, {@code KEY=VALUE}), its description, its default, and whether it may be repeated.
 * Immutable: each {@code with}-style method returns a changed copy.
 */
public final class Option {

  /** Whether an option takes a value. */
  enum Arity {
    /** A flag: present or not ({@code --json}; {@code --json=false} also reads). */
    NONE,
    /** A value always: {@code --config FILE} or {@code --config=FILE}. */
    ONE,
    /** A value when given ({@code --serve=PORT}); the fallback when not ({@code --serve}). */
    OPTIONAL
  }

  private final List<String> names;
  private final Arity arity;
  private final String label;
  private final String description;
  private final String defaultValue;
  private final String fallback;
  private final boolean repeatable;
  private final boolean integer;
  private final boolean hidden;

  private Option(List<String> names, Arity arity, String label, String description, String defaultValue,
      String fallback, boolean repeatable, boolean integer, boolean hidden) {
    this.names = List.copyOf(names);
    this.arity = arity;
    this.label = label;
    this.description = Objects.requireNonNull(description, "description");
    this.defaultValue = defaultValue;
    this.fallback = fallback;
    this.repeatable = repeatable;
    this.integer = integer;
    this.hidden = hidden;
    for (String name : this.names) {
      if (!name.startsWith("-") || name.equals("-") || name.equals("--") || name.contains("=")) {
        throw new IllegalArgumentException("not an option name: '" + name + "'");
      }
    }
  }

  /** A flag such as {@code --json}: true when given, false when not. */
  public static Option flag(String name, String description) {
    return new Option(List.of(name), Arity.NONE, null, description, null, null, false, false, false);
  }

  /** An option that takes a value, such as {@code --config FILE}; {@code label} names the value in the help. */
  public static Option value(String name, String label, String description) {
    return new Option(List.of(name), Arity.ONE, Objects.requireNonNull(label, "label"), description, null, null,
        false, false, false);
  }

  /** This option, also answering to {@code alias} (e.g. {@code -h} beside {@code --help}). */
  public Option alias(String alias) {
    List<String> all = new ArrayList<>(names);
    all.add(alias);
    return new Option(all, arity, label, description, defaultValue, fallback, repeatable, integer, hidden);
  }

  /** This option, read as {@code value} when it is not given. */
  public Option defaultValue(String value) {
    requireValue("a default");
    return new Option(names, arity, label, description, Objects.requireNonNull(value), fallback, repeatable, integer,
        hidden);
  }

  /** This option with its value optional: given alone, it reads as {@code fallback} ({@code --serve[=PORT]}). */
  public Option optionalValue(String fallback) {
    requireValue("an optional value");
    return new Option(names, Arity.OPTIONAL, label, description, defaultValue, Objects.requireNonNull(fallback),
        repeatable, integer, hidden);
  }

  /** This option, which may be given many times, each value kept ({@code --set a=1 --set b=2}). */
  public Option repeatable() {
    requireValue("repetition");
    return new Option(names, arity, label, description, defaultValue, fallback, true, integer, hidden);
  }

  /** This option, whose value must be a whole number (checked as the line is read). */
  public Option integer() {
    requireValue("a number");
    return new Option(names, arity, label, description, defaultValue, fallback, repeatable, true, hidden);
  }

  /** This option, left out of the help (for Berth's own use between its processes). */
  public Option hidden() {
    return new Option(names, arity, label, description, defaultValue, fallback, repeatable, integer, true);
  }

  private void requireValue(String what) {
    if (arity == Arity.NONE) {
      throw new IllegalStateException(name() + " is a flag: it takes no value, so no " + what);
    }
  }

  /** The option's main name: the first declared, as messages name it. */
  public String name() {
    return names.get(0);
  }

  /** Every name, the main one first. */
  public List<String> names() {
    return names;
  }

  /** The value's label in the help; null for a flag. */
  public String label() {
    return label;
  }

  /** The values the option takes, when its label lists them ({@code on|off}); empty when any value goes. */
  public List<String> choices() {
    return ValueKind.choices(label);
  }

  /** What the option does, as the help says it. */
  public String description() {
    return description;
  }

  /** The value when the option is not given; null when there is none. */
  public String defaultValue() {
    return defaultValue;
  }

  /** Whether it takes no value. */
  public boolean isFlag() {
    return arity == Arity.NONE;
  }

  /** Whether the option may be repeated. */
  public boolean isRepeatable() {
    return repeatable;
  }

  /** Whether the help leaves it out. */
  public boolean isHidden() {
    return hidden;
  }

  Arity arity() {
    return arity;
  }

  String fallback() {
    return fallback;
  }

  boolean isInteger() {
    return integer;
  }

  /** How the synopsis and the help show it: {@code --config=FILE}, {@code --serve[=PORT]}, {@code --json}. */
  String withLabel(String name) {
    return switch (arity) {
      case NONE -> name;
      case ONE -> name + "=" + label;
      case OPTIONAL -> name + "[=" + label + "]";
    };
  }

  /** How messages name it: {@code '--config' (FILE)}, or {@code '--json'} for a flag. */
  String quoted() {
    return "'" + name() + "'" + (label == null ? "" : " (" + label + ")");
  }

  @Override
  public String toString() {
    return withLabel(name());
  }
}
