package dev.berth.serve;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunReport;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunListener;
import dev.berth.session.LocalSession;
import dev.berth.session.SessionOptions;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A run that ended with its one task, {@code g/t}, which wrote a line to its stderr and exited: a journal
 * and task folder as Berth leaves them, for the dashboard to read.
 */
final class EndedRun {

  /** The line the task wrote to its stderr. */
  static final String STDERR = "the task wrote this line";

  private EndedRun() {}

  /** Runs it in {@code workdir}, its task exiting with {@code exitCode}, and returns its ledger entry, named {@code r1}. */
  static RunEntry in(Path workdir, int exitCode) throws Exception {
    FakeExecutor executor = new FakeExecutor();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(1);
    RunListener listener = new RunListener() {
      @Override
      public void taskEvent(TaskRecord task, TaskEvent event) {
        if (event instanceof TaskEvent.Started) {
          started.countDown();
        }
      }

      @Override
      public void runFinished(RunReport report) {
        finished.countDown();
      }
    };
    SessionOptions options = SessionOptions.builder(workdir)
        .spec(TaskSpecs.run("ended").workdir(workdir.toString())
            .group("g", TaskSpecs.task("t").memoryMiB(16).build()).build())
        .clock(new FakeClock()).hostProbe(new FakeHostProbe().cpus(4)).gpuProbe(new FakeGpuProbe())
        .executor(executor).listener(listener).say(line -> { }).warn(line -> { }).build();
    try (LocalSession session = LocalSession.open(options)) {
      session.start(failure -> { });
      if (!started.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("the task did not start");
      }
      executor.writeOutput(TaskId.of("t"), "", STDERR + "\n");
      executor.exit(TaskId.of("t"), exitCode);
      if (!finished.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("the run did not finish");
      }
    }
    // A real executor makes the task's folder before the launch, and the runtime links the shown log to
    // the attempt's; the fake makes the folder as it writes.
    Path task = workdir.resolve("g").resolve("t");
    Files.createLink(task.resolve("stderr.log"), task.resolve("attempt-1.stderr.log"));
    return new RunEntry("r1", "ended", "ann", 42, workdir.toString(), new Progress("ended", 0, 0, 1, 1),
        Instant.parse("2026-11-26T05:00:00Z"), Optional.empty(), List.of());
  }
}
