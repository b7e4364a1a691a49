package dev.berth.cli.args;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command line as the {@link Parser} read it against a {@link CommandSyntax}: the values given
 * for each option and parameter, the options' defaults where they were not, and whether the help or
 * the version was asked for.
 */
public final class Arguments {

  private final Map<Object, List<String>> given;
  private final boolean helpAsked;
  private final boolean versionAsked;

  Arguments(Map<Object, List<String>> given, boolean helpAsked, boolean versionAsked) {
    this.given = given;
    this.helpAsked = helpAsked;
    this.versionAsked = versionAsked;
  }

  /** Whether {@code -h} or {@code --help} was given. */
  public boolean helpAsked() {
    return helpAsked;
  }

  /** Whether {@code -V} or {@code --version} was given. */
  public boolean versionAsked() {
    return versionAsked;
  }

  /** Whether the option was given. */
  public boolean has(Option option) {
    return given.containsKey(option);
  }

  /** Whether a flag is on: given, and not as {@code --flag=false}. */
  public boolean flag(Option option) {
    return Boolean.parseBoolean(value(option));
  }

  /** The option's value: the last one given, else its default, else null. */
  public String value(Option option) {
    List<String> values = given.get(option);
    return values == null ? option.defaultValue() : values.get(values.size() - 1);
  }

  /** Every value a repeatable option was given, in order; its default alone, or none, when it was not given. */
  public List<String> values(Option option) {
    List<String> values = given.get(option);
    if (values != null) {
      return List.copyOf(values);
    }
    return option.defaultValue() == null ? List.of() : List.of(option.defaultValue());
  }

  /**
   * Why the option's value is not one of its {@link Option#choices()}, as
   * {@code --host-ledger must be on or off, not maybe}; empty when it is one, when the option was not
   * given, or when it takes any value.
   */
  public Optional<String> notAChoice(Option option) {
    String value = value(option);
    List<String> choices = option.choices();
    if (value == null || choices.isEmpty() || choices.contains(value)) {
      return Optional.empty();
    }
    String listed = String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + choices.get(choices.size() - 1);
    return Optional.of(option.name() + " must be " + listed + ", not " + value);
  }

  /** The option's value as a whole number (declared {@link Option#integer()}), or null. */
  public Integer integer(Option option) {
    String value = value(option);
    return value == null ? null : Integer.valueOf(value.strip());
  }

  /** The option's value as a path, or null. */
  public Path path(Option option) {
    return path(value(option), "option '" + option.name() + "'");
  }

  /** The parameter's argument, or null when it was left out. */
  public String value(Parameter parameter) {
    List<String> values = given.get(parameter);
    return values == null ? null : values.get(0);
  }

  /** Every argument a parameter took, in order. */
  public List<String> values(Parameter parameter) {
    List<String> values = given.get(parameter);
    return values == null ? List.of() : List.copyOf(values);
  }

  /** The parameter's argument as a path, or null when it was left out. */
  public Path path(Parameter parameter) {
    return path(value(parameter), "positional parameter " + parameter.label());
  }

  private static Path path(String value, String what) {
    if (value == null) {
      return null;
    }
    try {
      return Path.of(value);
    } catch (InvalidPathException e) {
      throw new BadUsage("Invalid value for " + what + ": '" + value + "' is not a path");
    }
  }
}
