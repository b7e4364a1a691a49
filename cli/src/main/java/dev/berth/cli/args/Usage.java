package dev.berth.cli.args;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The help of a command, as {@code --help} prints it: {@code Usage:} with the synopsis, the
 * description, then each parameter and option with what it does, wrapped to {@link HelpColumns#WIDTH}
 * columns. Options are listed by name; parameters first, in order.
 */
public final class Usage {

  private static final Comparator<Option> BY_NAME = Comparator.comparing(Usage::sortKey);

  private Usage() {}

  /** The help of the command called {@code commandPath} (e.g. {@code berth run}). */
  public static String of(String commandPath, CommandSyntax syntax) {
    return header(synopsis(commandPath, syntax), syntax.description()) + table(syntax.parameters(), syntax.options());
  }

  /** The top of a help: the synopsis, then the description wrapped, each followed by a blank line. */
  public static String header(String synopsis, String description) {
    StringBuilder text = new StringBuilder(synopsis).append('\n');
    HelpColumns.wrap(description, HelpColumns.WIDTH).forEach(line -> text.append(line).append('\n'));
    return text.append('\n').toString();
  }

  /** {@code Usage: berth run [-hV] [--dry-run] ... SPEC}, broken between items to fit the width. */
  public static String synopsis(String commandPath, CommandSyntax syntax) {
    List<Option> shown = syntax.options().stream().filter(o -> !o.isHidden()).sorted(BY_NAME).toList();
    List<Option> inChoices = syntax.choices().stream().flatMap(List::stream).toList();
    List<String> items = new ArrayList<>();
    String shortFlags = shown.stream().filter(o -> o.isFlag() && shortName(o) != null)
        .map(o -> shortName(o).substring(1))
        .sorted(String.CASE_INSENSITIVE_ORDER)
        .collect(Collectors.joining());
    if (!shortFlags.isEmpty()) {
      items.add("[-" + shortFlags + "]");
    }
    for (Option o : shown) {
      if (o.isFlag() && shortName(o) == null && !inChoices.contains(o)) {
        items.add("[" + o.name() + "]");
      }
    }
    for (Option o : shown) {
      if (!o.isFlag() && !o.isRepeatable() && !inChoices.contains(o)) {
        items.add("[" + o.withLabel(o.name()) + "]");
      }
    }
    for (Option o : shown) {
      if (o.isRepeatable() && !inChoices.contains(o)) {
        items.add("[" + o.withLabel(o.name()) + "]...");
      }
    }
    syntax.choices().forEach(choice -> items.add(choice(choice)));
    syntax.parameters().forEach(p -> items.add(p.synopsis()));
    return HelpColumns.hanging("Usage: " + commandPath, items);
  }

  /** The rows of the parameters and the options that are not hidden, each with its description. */
  public static String table(List<Parameter> parameters, List<Option> options) {
    HelpColumns columns = new HelpColumns();
    parameters.forEach(p -> columns.row("      " + p.synopsis(), p.description()));
    options.stream().filter(o -> !o.isHidden()).sorted(BY_NAME).forEach(o -> columns.row(left(o), o.description()));
    return columns.render();
  }

  /** {@code (--defaults | --effective=SPEC)}. */
  static String choice(List<Option> choice) {
    return choice.stream().map(o -> o.withLabel(o.name())).collect(Collectors.joining(" | ", "(", ")"));
  }

  private static String left(Option option) {
    String shortName = shortName(option);
    String longName = longName(option);
    if (longName == null) {
      return "  " + option.withLabel(shortName);
    }
    return (shortName == null ? "      " : "  " + shortName + ", ") + option.withLabel(longName);
  }

  private static String shortName(Option option) {
    return option.names().stream().filter(n -> !n.startsWith("--") && n.length() == 2).findFirst().orElse(null);
  }

  private static String longName(Option option) {
    return option.names().stream().filter(n -> n.startsWith("--")).findFirst().orElse(null);
  }

  private static String sortKey(Option option) {
    return option.name().replaceFirst("^-+", "").toLowerCase(Locale.ROOT);
  }
}
