package dev.berth.runtime.engine;

import static dev.berth.testkit.TaskSpecs.run;
import static dev.berth.testkit.TaskSpecs.task;
import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnjournaledExitsTest {

  @TempDir Path dir;

  private final RunSpec spec = run("r").group("g", task("a").build(), task("b").build(), task("c").build(),
      task("d").build()).build();

  @Test
  void exitsAndResultsOfAttemptsTheJournalNeverLaunchedAreFoundAndKnownOnesAreNot() throws Exception {
    RunLayout layout = new RunLayout(dir);
    try (ExitMarks marks = ExitMarks.of(dir)) {
      marks.write(taskDir(layout, "a"), 1, 0); // the journal knows this one
      marks.write(taskDir(layout, "b"), 1, 1);
      marks.write(taskDir(layout, "b"), 2, 0); // a retry the journal lost
      marks.write(taskDir(layout, "c"), 1, 0); // a task the journal never launched
    }
    Files.createDirectories(taskDir(layout, "d"));
    Files.writeString(taskDir(layout, "d").resolve("result.json"), "{}");

    assertThat(UnjournaledExits.find(spec, layout, Map.of(TaskId.of("a"), 1, TaskId.of("b"), 1)))
        .containsExactly("b attempt 2 (exit 0)", "c attempt 1 (exit 0)", "d (its result.json)");
    assertThat(UnjournaledExits.find(spec, layout,
        Map.of(TaskId.of("a"), 1, TaskId.of("b"), 2, TaskId.of("c"), 1, TaskId.of("d"), 1))).isEmpty();
  }

  @Test
  void aRunWhoseTasksNeverHadFoldersHasNothingUnjournaled() {
    assertThat(UnjournaledExits.find(spec, new RunLayout(dir), Map.of())).isEmpty();
  }

  private Path taskDir(RunLayout layout, String id) {
    return layout.taskDir(spec.tasks().stream().filter(t -> t.id().value().equals(id)).findFirst().orElseThrow());
  }
}
