package dev.berth.runtime.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.report.TaskStatus;
import dev.berth.core.scheduling.RunState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code berth-deps.json} into a task's folder before it starts: for each task it depends
 * on, its group, folder and how it ended, so the task can read its inputs.
 */
final class DependencyFile {

  private static final ObjectMapper JSON = new ObjectMapper();

  private DependencyFile() {}

  static Path write(RunLayout layout, RunState state, TaskSpec task) {
    ObjectNode root = JSON.createObjectNode();
    for (TaskId dep : task.dependsOn()) {
      var record = state.task(dep);
      ObjectNode node = root.putObject(dep.value());
      node.put("group", record.spec().group());
      node.put("dir", layout.taskDir(record.spec()).toString());
      node.put("status", TaskStatus.of(record.state()).name());
    }
    Path file = layout.taskDir(task).resolve("berth-deps.json");
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return file;
  }
}
