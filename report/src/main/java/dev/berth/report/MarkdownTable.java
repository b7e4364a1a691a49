package dev.berth.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A GitHub-flavoured Markdown table whose number columns are right-aligned, cells escaped. */
final class MarkdownTable {

  /** Columns of durations and counts, which read best right-aligned though they are not plain numbers. */
  private static final Set<String> RIGHT = Set.of("#", "attempts", "run time", "load time", "train time");

  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  MarkdownTable(List<String> header) {
    this.header = List.copyOf(header);
  }

  MarkdownTable row(List<String> cells) {
    rows.add(List.copyOf(cells));
    return this;
  }

  void render(StringBuilder md) {
    line(md, header);
    md.append('|');
    for (int c = 0; c < header.size(); c++) {
      md.append(right(c) ? " ---: |" : " --- |");
    }
    md.append('\n');
    rows.forEach(r -> line(md, r));
  }

  private boolean right(int column) {
    if (RIGHT.contains(header.get(column))) {
      return true;
    }
    boolean any = false;
    for (List<String> r : rows) {
      String cell = r.get(column);
      if (cell.isEmpty()) {
        continue;
      }
      if (Values.number(cell) == null) {
        return false;
      }
      any = true;
    }
    return any;
  }

  private static void line(StringBuilder md, List<String> cells) {
    md.append('|');
    for (String c : cells) {
      md.append(' ').append(Escape.markdown(c)).append(" |");
    }
    md.append('\n');
  }
}
