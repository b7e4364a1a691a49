package dev.berth.cli.args;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one command accepts: its description, its positional parameters in order, its options (with
 * {@link #HELP} and {@link #VERSION}, which every command answers), and the sets of options of which
 * exactly one must be given. Built with {@link #describedAs}; options shared by several commands are
 * the same {@link Option} objects, declared once.
 */
public final class CommandSyntax {

  /** {@code -h, --help}: every command prints its usage for it. */
  public static final Option HELP = Option.flag("--help", "Show this help message and exit.").alias("-h");

  /** {@code -V, --version}: every command prints the version for it. */
  public static final Option VERSION = Option.flag("--version", "Print version information and exit.").alias("-V");

  private final String description;
  private final List<Parameter> parameters;
  private final List<Option> options;
  private final List<List<Option>> choices;
  private final Map<String, Option> byName = new HashMap<>();

  private CommandSyntax(Builder builder) {
    this.description = builder.description;
    this.parameters = List.copyOf(builder.parameters);
    this.options = List.copyOf(builder.options);
    this.choices = List.copyOf(builder.choices);
    for (Option option : options) {
      for (String name : option.names()) {
        if (byName.put(name, option) != null) {
          throw new IllegalStateException("option " + name + " is declared twice");
        }
      }
    }
    for (int i = 0; i < parameters.size() - 1; i++) {
      if (parameters.get(i).count() != Parameter.Count.ONE) {
        throw new IllegalStateException(parameters.get(i) + " must be the last parameter: it may be left out");
      }
    }
  }

  /** A new syntax for a command that does what {@code description} says. */
  public static Builder describedAs(String description) {
    return new Builder(description);
  }

  /** What the command does, for its help and the list of commands. */
  public String description() {
    return description;
  }

  /** The positional parameters, in order. */
  public List<Parameter> parameters() {
    return parameters;
  }

  /** Every option, help and version included, in the order declared. */
  public List<Option> options() {
    return options;
  }

  /** The sets of options of which exactly one must be given. */
  public List<List<Option>> choices() {
    return choices;
  }

  /** The option with this name ({@code --config}, {@code -h}), or null. */
  public Option option(String name) {
    return byName.get(name);
  }

  /** Collects a command's parameters and options. */
  public static final class Builder {
    private final String description;
    private final List<Parameter> parameters = new ArrayList<>();
    private final List<Option> options = new ArrayList<>(List.of(HELP, VERSION));
    private final List<List<Option>> choices = new ArrayList<>();

    private Builder(String description) {
      this.description = Objects.requireNonNull(description, "description");
    }

    /** Adds the next positional parameter. */
    public Builder parameter(Parameter parameter) {
      parameters.add(Objects.requireNonNull(parameter, "parameter"));
      return this;
    }

    /** Adds options. */
    public Builder options(Option... added) {
      for (Option option : added) {
        options.add(Objects.requireNonNull(option, "option"));
      }
      return this;
    }

    /** Adds options of which exactly one must be given, such as {@code (--defaults | --effective=SPEC)}. */
    public Builder oneOf(Option... choice) {
      if (choice.length < 2) {
        throw new IllegalArgumentException("a choice needs two options or more");
      }
      options(choice);
      choices.add(List.of(choice));
      return this;
    }

    /**
     * The syntax.
     *
     * @throws IllegalStateException when a name is declared twice or a parameter that may be left out is
     *     not the last one
     */
    public CommandSyntax build() {
      return new CommandSyntax(this);
    }
  }
}
