package dev.berth.session;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.journal.SqliteJournal;
import dev.berth.report.ReportFiles;
import dev.berth.runtime.engine.RunLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What an earlier run left in a folder: its reports, its journal's side files, its task folders.
 * When the journal itself is missing or empty, these say that work was done there, and starting
 * afresh would silently run it all again.
 */
final class RunTraces {

  private RunTraces() {}

  /**
   * The traces of an earlier run in {@code runDir}, in words ({@code report.json, 12 task folders}),
   * or empty when there are none.
   *
   * @param spec the spec given now, whose task folders are looked for
   */
  static Optional<String> left(Path runDir, RunSpec spec) {
    List<String> found = new ArrayList<>();
    List<Path> files = new ArrayList<>(List.of(runDir.resolve(ReportFiles.JSON), StatusFile.of(runDir)));
    files.addAll(SqliteJournal.sideFiles(RunJournal.file(runDir)));
    for (Path p : files) {
      if (Files.exists(p)) {
        found.add(runDir.relativize(p).toString());
      }
    }
    RunLayout layout = TaskRunners.layout(spec, new RunLayout(runDir));
    long folders = 0;
    for (GroupSpec group : spec.groups()) {
      // A group without its folder has no task folders: a fresh sweep is not looked for task by task.
      if (Files.isDirectory(layout.tasksRoot().resolve(group.name()))) {
        folders += group.tasks().stream().filter(t -> holdsFiles(layout, t)).count();
      }
    }
    if (folders > 0) {
      found.add(folders + (folders == 1 ? " task folder" : " task folders"));
    }
    return found.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", found));
  }

  private static boolean holdsFiles(RunLayout layout, TaskSpec task) {
    Path dir = layout.taskDir(task);
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isPresent();
    } catch (IOException e) {
      return true;
    }
  }
}
