package dev.berth.runtime.engine;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.report.ResultFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Attempts that the run's folder shows ended but its journal does not know: an exit mark
 * ({@code .berth-exits}) for an attempt past the last one the journal launched, or a
 * {@code result.json} in the folder of a task the journal never launched. Both mean the journal lost
 * committed events (its write-ahead log and commit mark removed together), and resuming from it
 * would run finished tasks again.
 */
public final class UnjournaledExits {

  private UnjournaledExits() {}

  /**
   * The attempts the journal does not know, in words ({@code t-3 attempt 1 (exit 0)}, {@code t-5
   * (its result.json)}), in the spec's task order; empty when the journal knows every one.
   *
   * @param journaled the last attempt the journal launched of each task; a task it never launched is absent
   */
  public static List<String> find(RunSpec spec, RunLayout layout, Map<TaskId, Integer> journaled) {
    Map<String, int[]> marked = ExitMarks.of(layout.runDir()).readAll().lastExits();
    Set<String> groupsWithFolders = new HashSet<>();
    for (var group : spec.groups()) {
      if (Files.isDirectory(layout.tasksRoot().resolve(group.name()))) {
        groupsWithFolders.add(group.name());
      }
    }
    List<String> lost = new ArrayList<>();
    for (TaskSpec task : spec.tasks()) {
      if (!groupsWithFolders.contains(task.group())) {
        continue; // no task of the group ever had a folder: a fresh sweep is not looked at task by task
      }
      int known = journaled.getOrDefault(task.id(), 0);
      Path dir = layout.taskDir(task);
      int[] mark = marked.get(dir.toAbsolutePath().normalize().toString());
      if (mark != null && mark[0] > known) {
        lost.add(task.id() + " attempt " + mark[0] + " (exit " + mark[1] + ")");
      } else if (known == 0 && Files.isRegularFile(dir.resolve(ResultFile.NAME))) {
        lost.add(task.id() + " (its result.json)");
      }
    }
    return lost;
  }
}
