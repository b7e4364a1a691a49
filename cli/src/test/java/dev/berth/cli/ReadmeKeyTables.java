package dev.berth.cli;

import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.Setting;
import dev.berth.session.AdapterTables;
import dev.berth.spec.ConfigKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The README's key tables as the settings tables generate them, between marker comments, so the docs
 * cannot drift from the code. {@code mvn -o -pl cli -am test -Dtest=ReadmeKeyTablesTest
 * -Dberth.readme=update -Dsurefire.failIfNoSpecifiedTests=false} writes them into README.md.
 */
final class ReadmeKeyTables {

  /** The README of the repository, seen from the cli module. */
  static final Path README = Path.of("..", "README.md");

  /** The generated tables, each named by its marker. */
  record Table(String name, String markdown) {
    String begin() {
      return "<!-- " + name + ": generated from the code by ReadmeKeyTablesTest; do not edit -->\n";
    }

    String end() {
      return "<!-- end of " + name + " -->\n";
    }
  }

  private ReadmeKeyTables() {}

  /** Every generated table. */
  static List<Table> tables() {
    return List.of(new Table("task keys", taskKeys()), new Table("config keys", configKeys()));
  }

  /** The task keys: key, value, default, whether a group may set it, meaning. */
  static String taskKeys() {
    List<List<String>> rows = new ArrayList<>();
    for (TaskKey<?> k : TaskKeys.ALL) {
      Setting<?> s = k.setting();
      rows.add(List.of(code(s.key()), s.type(), s.defaultValue(), k.groupMaySet() ? "yes" : "", s.docs()));
    }
    return markdown(List.of("key", "value", "default", "on a group", "meaning"), rows);
  }

  /** The config keys: key, value, default, meaning. */
  static String configKeys() {
    List<List<String>> rows = new ArrayList<>();
    for (Setting<?> s : ConfigKeys.of(AdapterTables.ALL).all()) {
      rows.add(List.of(code(s.key()), s.type(), code(s.defaultValue().isEmpty() ? "\"\"" : s.defaultValue()), s.docs()));
    }
    return markdown(List.of("key", "value", "default", "meaning"), rows);
  }

  /** {@code readme} with each table's text between its markers replaced by the generated one. */
  static String regenerate(String readme) {
    String out = readme;
    for (Table t : tables()) {
      int begin = out.indexOf(t.begin());
      int end = out.indexOf(t.end());
      if (begin < 0 || end < begin) {
        throw new IllegalStateException("README.md lacks the markers " + t.begin().strip() + " ... " + t.end().strip());
      }
      out = out.substring(0, begin + t.begin().length()) + t.markdown() + out.substring(end);
    }
    return out;
  }

  /** Writes the generated tables into README.md. */
  static void update() throws IOException {
    Files.writeString(README, regenerate(Files.readString(README)));
  }

  private static String markdown(List<String> header, List<List<String>> rows) {
    StringBuilder out = new StringBuilder();
    out.append(row(header));
    out.append(row(header.stream().map(h -> "---").toList()));
    rows.forEach(r -> out.append(row(r)));
    return out.toString();
  }

  private static String row(List<String> cells) {
    return "| " + String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()) + " |\n";
  }

  private static String code(String text) {
    return "`" + text + "`";
  }
}
