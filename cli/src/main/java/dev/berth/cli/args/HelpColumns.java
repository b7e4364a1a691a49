package dev.berth.cli.args;

import java.util.ArrayList;
import java.util.List;

/**
 * Two columns of help text, such as options and what they do: the left column as wide as its
 * entries (up to a limit: a longer entry has its description start on the next line), the right
 * column wrapped on spaces to the width of the help.
 */
public final class HelpColumns {

  /** The width the help is wrapped to. */
  public static final int WIDTH = 80;

  /** The widest the left column gets, its gap included. */
  private static final int MOST_LEFT = 30;

  private static final int GAP = 2;

  private final List<String[]> rows = new ArrayList<>();

  /** Adds a row: {@code left} as is, {@code right} wrapped. */
  public HelpColumns row(String left, String right) {
    rows.add(new String[] {left, right});
    return this;
  }

  /** The rows, each line ending with a line break. */
  public String render() {
    int widest = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
    int column = Math.min(widest + GAP + 1, MOST_LEFT);
    StringBuilder text = new StringBuilder();
    for (String[] row : rows) {
      List<String> lines = wrap(row[1], WIDTH - column);
      String left = row[0];
      if (left.length() + GAP > column) {
        text.append(left).append('\n');
        left = "";
      }
      for (String line : lines) {
        text.append(left).append(" ".repeat(column - left.length())).append(line).append('\n');
        left = "";
      }
    }
    return text.toString();
  }

  /** {@code text} in lines of at most {@code width} characters, broken at spaces (a longer word has a line to itself). */
  public static List<String> wrap(String text, int width) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.strip().split(" +")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      line.append(line.length() > 0 ? " " : "").append(word);
    }
    lines.add(line.toString());
    return lines;
  }

  /**
   * {@code items} joined by spaces after {@code first}, in lines of at most {@link #WIDTH}, each
   * line after the first indented as far as {@code first} is long; an item is never broken.
   */
  public static String hanging(String first, List<String> items) {
    StringBuilder text = new StringBuilder(first);
    int lineLength = first.length();
    String indent = " ".repeat(first.length() + 1);
    boolean lineHasItem = !first.isEmpty();
    for (String item : items) {
      if (lineHasItem && lineLength + 1 + item.length() > WIDTH) {
        text.append('\n').append(indent);
        lineLength = indent.length();
        lineHasItem = false;
      }
      if (lineHasItem) {
        text.append(' ');
        lineLength++;
      }
      text.append(item);
      lineLength += item.length();
      lineHasItem = true;
    }
    return text.append('\n').toString();
  }
}
