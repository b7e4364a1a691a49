package dev.berth.cli.args;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads a command line against a {@link CommandSyntax}. Options come as {@code --name value},
 * {@code --name=value}, flags alone, short flags alone or together ({@code -ah}); anything else is a
 * positional argument, and so is everything after {@code --}. Positional arguments may come before,
 * between or after the options.
 *
 * <p>{@code -h}/{@code --help} and {@code -V}/{@code --version} win over every mistake on the line:
 * someone asking for the help of a command they got wrong gets the help.
 */
public final class Parser {

  private final CommandSyntax syntax;
  private final String[] args;
  private final Map<Object, List<String>> given = new HashMap<>();
  private final List<Integer> positionals = new ArrayList<>();
  private BadUsage firstMistake;

  private Parser(CommandSyntax syntax, String[] args) {
    this.syntax = syntax;
    this.args = args;
  }

  /**
   * Reads {@code args} from index {@code from} on (the indices in messages count from the start of
   * {@code args}, so they match the whole command line when it begins with the command's name).
   *
   * @throws BadUsage naming the first mistake, unless the help or the version was asked for
   */
  public static Arguments parse(CommandSyntax syntax, String[] args, int from) {
    return new Parser(syntax, args).read(from);
  }

  private Arguments read(int from) {
    boolean onlyPositionals = false;
    for (int i = from; i < args.length; i++) {
      String arg = args[i];
      if (onlyPositionals || !arg.startsWith("-") || arg.equals("-")) {
        positionals.add(i);
      } else if (arg.equals("--")) {
        onlyPositionals = true;
      } else {
        i = option(i);
      }
    }
    boolean help = given.containsKey(CommandSyntax.HELP);
    boolean version = given.containsKey(CommandSyntax.VERSION);
    if (!help && !version) {
      assignPositionals();
      checkChoices();
      if (firstMistake != null) {
        throw firstMistake;
      }
    }
    return new Arguments(given, help, version);
  }

  /** Reads the option at {@code i}; returns the index of the last argument it took. */
  private int option(int i) {
    String arg = args[i];
    int equals = arg.startsWith("--") ? arg.indexOf('=') : -1;
    String name = equals < 0 ? arg : arg.substring(0, equals);
    Option option = syntax.option(name);
    if (option == null) {
      if (!cluster(arg)) {
        mistake("Unknown option: '" + arg + "'");
      }
      return i;
    }
    String attached = equals < 0 ? null : arg.substring(equals + 1);
    switch (option.arity()) {
      case NONE -> {
        if (attached != null && !attached.equalsIgnoreCase("true") && !attached.equalsIgnoreCase("false")) {
          mistake("Invalid value for option '" + option.name() + "': '" + attached + "' is not a boolean");
          return i;
        }
        record(option, attached == null ? "true" : attached.toLowerCase(Locale.ROOT));
      }
      case ONE -> {
        if (attached != null) {
          record(option, attached);
        } else if (i + 1 < args.length && !namesAnOption(args[i + 1])) {
          record(option, args[++i]);
        } else {
          mistake("Missing required parameter for option " + option.quoted());
        }
      }
      case OPTIONAL -> {
        if (attached != null) {
          record(option, attached);
        } else if (i + 1 < args.length && canBeOptionalValue(option, args[i + 1])) {
          record(option, args[++i]);
        } else {
          record(option, option.fallback());
        }
      }
    }
    return i;
  }

  /** Short flags given together, such as {@code -ah}: true when every letter is one. */
  private boolean cluster(String arg) {
    if (arg.startsWith("--") || arg.length() < 3) {
      return false;
    }
    List<Option> flags = new ArrayList<>();
    for (int c = 1; c < arg.length(); c++) {
      Option option = syntax.option("-" + arg.charAt(c));
      if (option == null || !option.isFlag()) {
        return false;
      }
      flags.add(option);
    }
    flags.forEach(flag -> record(flag, "true"));
    return true;
  }

  /** An option's value may be anything, even {@code -1}, unless it is an option of this command. */
  private boolean namesAnOption(String arg) {
    if (arg.equals("--")) {
      return true;
    }
    int equals = arg.startsWith("--") ? arg.indexOf('=') : -1;
    return syntax.option(equals < 0 ? arg : arg.substring(0, equals)) != null;
  }

  /** The argument after {@code --serve} is its port only when it is one; else it is the next parameter. */
  private boolean canBeOptionalValue(Option option, String arg) {
    if (arg.startsWith("-")) {
      return false;
    }
    return !option.isInteger() || isInteger(arg);
  }

  private void record(Option option, String value) {
    List<String> values = given.computeIfAbsent(option, o -> new ArrayList<>());
    if (!values.isEmpty() && !option.isRepeatable()) {
      mistake("option " + option.quoted() + " should be specified only once");
      return;
    }
    if (option.isInteger() && !isInteger(value)) {
      mistake("Invalid value for option '" + option.name() + "': '" + value + "' is not an int");
      return;
    }
    values.add(value);
  }

  private void assignPositionals() {
    int next = 0;
    List<String> missing = new ArrayList<>();
    for (Parameter parameter : syntax.parameters()) {
      int take = switch (parameter.count()) {
        case ONE, OPTIONAL -> Math.min(1, positionals.size() - next);
        case REST -> positionals.size() - next;
      };
      if (take == 0 && parameter.count() == Parameter.Count.ONE) {
        missing.add("'" + parameter.label() + "'");
      }
      List<String> values = new ArrayList<>();
      for (int k = 0; k < take; k++) {
        values.add(args[positionals.get(next++)]);
      }
      if (!values.isEmpty()) {
        given.put(parameter, values);
      }
    }
    if (next < positionals.size()) {
      List<Integer> left = positionals.subList(next, positionals.size());
      String quoted = left.stream().map(i -> "'" + args[i] + "'").collect(Collectors.joining(", "));
      mistake(left.size() == 1
          ? "Unmatched argument at index " + left.get(0) + ": " + quoted
          : "Unmatched arguments from index " + left.get(0) + ": " + quoted);
    }
    if (!missing.isEmpty()) {
      mistake("Missing required parameter" + (missing.size() == 1 ? "" : "s") + ": " + String.join(", ", missing));
    }
  }

  private void checkChoices() {
    for (List<Option> choice : syntax.choices()) {
      List<Option> chosen = choice.stream().filter(given::containsKey).toList();
      if (chosen.isEmpty()) {
        mistake("Missing required argument (specify one of these): " + Usage.choice(choice));
      } else if (chosen.size() > 1) {
        mistake(chosen.stream().map(o -> o.withLabel(o.name())).collect(Collectors.joining(", "))
            + " are mutually exclusive (specify only one)");
      }
    }
  }

  private void mistake(String message) {
    if (firstMistake == null) {
      firstMistake = new BadUsage(message);
    }
  }

  private static boolean isInteger(String text) {
    try {
      Integer.parseInt(text.strip());
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
