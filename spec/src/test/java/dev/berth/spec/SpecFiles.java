package dev.berth.spec;

import dev.berth.core.model.SettingsTable;
import dev.berth.report.NotifySettings;
import dev.berth.report.SmtpKeys;
import dev.berth.runtime.exec.LocalKeys;
import dev.berth.slurm.SlurmKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Writes spec and config files for tests. */
final class SpecFiles {

  /** The adapters' tables, as the session gives them to the reader. */
  static final List<SettingsTable<?, ?>> ADAPTERS = List.of(LocalKeys.TABLE, SmtpKeys.TABLE, NotifySettings.TABLE,
      SlurmKeys.TABLE);

  private SpecFiles() {}

  /** Writes {@code text} to {@code dir/name} and returns the path. */
  static Path write(Path dir, String name, String text) {
    try {
      return Files.writeString(dir.resolve(name), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A spec with one group {@code main} holding the given task lines (indented as list items). */
  static String oneGroup(String tasks) {
    return "name: run\ngroups:\n  - name: main\n    tasks:\n" + tasks.stripTrailing().indent(6);
  }
}
