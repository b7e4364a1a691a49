package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JavaTaskTest {

  @TempDir Path dir;

  @Test
  void aJavaTaskRunsThroughTheWorkerWithTheLoadTrainProtocol() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      TaskResult r = berth.executeTask(Tasks.java("square-7", SquareTask.class).param("x", 7).memory("256MiB"));

      assertThat(r.succeeded()).as(r + "\n" + r.stderr()).isTrue();
      assertThat(r.twoStage()).isTrue();
      assertThat(r.result()).containsEntry("square", 49);
      assertThat(r.items()).containsEntry("device", "cpu").containsEntry("history", List.of(1, 2, 7));
    }
    assertThat(Sessions.berthThreads()).isEmpty(); // the control channel's threads too
    assertThat(Sessions.childProcesses()).isEmpty();
  }

  @Test
  void aTwoStageTasksResultReportsItsLoadAndTrainTimesAsTheRunReportDoes() throws Exception {
    try (Berth berth = Berth.local(Sessions.real(dir, RunListenerNone.INSTANCE).build())) {
      TaskHandle handle = berth.submit(Tasks.java("square-3", SquareTask.class).param("x", 3).memory("256MiB"));
      TaskResult r = handle.get();

      assertThat(r.succeeded()).as(r + "\n" + r.stderr()).isTrue();
      var attempt = r.report().attempts().get(0);
      assertThat(attempt.loadTimeMs()).as("load time").isNotNull();
      assertThat(attempt.trainTimeMs()).as("train time").isNotNull();
      assertThat(handle.attempts()).containsExactlyElementsOf(r.report().attempts());
    }
  }

  @Test
  void aJavaTaskRunsTheWorkerOnThisJvmsClassPathAndSpeaksTheProtocol() {
    TaskSpec spec = Tasks.java("t", SquareTask.class, List.of("-Xmx64m")).toSpec("g", SchedulerConfig.DEFAULTS);

    assertThat(spec.twoStage()).isTrue();
    assertThat(spec.command()).containsSubsequence("-Xmx64m", "-cp", System.getProperty("java.class.path"),
        Tasks.WORKER_MAIN, SquareTask.class.getName());
    assertThat(spec.command().get(0)).endsWith("java");
  }

  @Test
  void aClassThatIsNotABerthTaskIsRefusedWithTheRule() {
    assertThatThrownBy(() -> Tasks.java("t", String.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("java.lang.String does not implement dev.berth.task.BerthTask; a Java task implements it"
            + " (module berth-task-api)");
    assertThatThrownBy(() -> Tasks.java("t", Map.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("does not implement");
  }
}
