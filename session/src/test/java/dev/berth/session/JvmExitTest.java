package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.AttemptReport;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.report.TaskReport;
import dev.berth.core.report.TaskStatus;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A session whose JVM exits while real task processes run: whichever {@link SessionOptions.JvmExit}
 * policy it follows, the processes are gone and their attempts count as interrupted, never as killed
 * or failed, so the next session runs them again without spending a retry.
 */
class JvmExitTest {

  @TempDir Path dir;

  private Path workdir() {
    return dir.resolve("run");
  }

  /** One task that runs until it is stopped, with no retry to spend. */
  private RunSpec sleeper() {
    return TaskSpecs.run("exits").workdir(workdir().toString())
        .group("g", TaskSpecs.task("sleeps").command("sleep", "600").memoryMiB(8).build()).build();
  }

  @ParameterizedTest
  @EnumSource(SessionOptions.JvmExit.class)
  void anAttemptRunningWhenTheJvmExitsIsInterruptedAndRunsAgainWithoutARetry(SessionOptions.JvmExit policy)
      throws Exception {
    Seen seen = new Seen();
    List<ProcessHandle> before = ProcessHandle.current().descendants().toList();
    LocalSession first = LocalSession.open(SessionOptions.builder(workdir()).spec(sleeper())
        .hostProbe(new FakeHostProbe().cpus(16)).gpuProbe(new FakeGpuProbe()).listener(seen)
        .onJvmExit(policy).build());
    first.start(failure -> { });
    seen.awaitLaunches("sleeps", 1);
    List<ProcessHandle> running = ProcessHandle.current().descendants()
        .filter(p -> p.isAlive() && !before.contains(p)).toList();
    assertThat(running).isNotEmpty();

    first.jvmExit(); // the shutdown hook's work, as the JVM exits
    first.close();

    // A killed process is alive until it is reaped, which a loaded machine may take a moment to do.
    for (ProcessHandle p : running) {
      p.onExit().get(60, TimeUnit.SECONDS);
    }
    assertThat(running).noneMatch(ProcessHandle::isAlive);
    FakeExecutor second = new FakeExecutor();
    Seen again = new Seen();
    try (LocalSession session = LocalSession.open(SessionOptions.builder(workdir()).spec(sleeper())
        .hostProbe(new FakeHostProbe().cpus(16)).gpuProbe(new FakeGpuProbe()).executor(second).listener(again)
        .build())) {
      assertThat(session.resumed()).isTrue();
      session.start(failure -> { });
      again.awaitLaunches("sleeps", 1);
      second.exit(TaskId.of("sleeps"), 0);

      RunReport report = again.awaitFinished();
      assertThat(report.status()).isEqualTo(RunStatus.SUCCEEDED);
      TaskReport task = report.groups().get(0).tasks().get(0);
      assertThat(task.status()).isEqualTo(TaskStatus.SUCCEEDED);
      assertThat(task.attempts()).extracting(AttemptReport::outcome).containsExactly("INTERRUPTED", "SUCCEEDED");
      assertThat(second.transcript()).containsExactly("launch sleeps#2", "exit sleeps 0");
    }
  }
}
