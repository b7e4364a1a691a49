package dev.berth.cli;

import java.util.List;
import java.util.Optional;

/**
 * A table as {@code berth ps} and {@code berth queue} print it: columns two spaces apart, the last
 * one as long as it is (a folder, a command), and below a row a line saying why, when it has one.
 */
final class Columns {

  private Columns() {}

  /**
   * The rows as text, each line ending with {@code \n}.
   *
   * @param rows the cells, the header first; every row as many as the header
   * @param whys for each row, what its {@code why:} line says, if it has one
   */
  static String render(List<String[]> rows, List<Optional<String>> whys) {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        widths[c] = Math.max(widths[c], row[c].length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      String[] row = rows.get(r);
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        String cell = c == row.length - 1 ? row[c] : row[c] + " ".repeat(widths[c] - row[c].length());
        line.append(c == 0 ? "" : "  ").append(cell);
      }
      text.append(line.toString().stripTrailing()).append('\n');
      whys.get(r).ifPresent(why -> text.append("  why: ").append(why).append('\n'));
    }
    return text.toString();
  }
}
