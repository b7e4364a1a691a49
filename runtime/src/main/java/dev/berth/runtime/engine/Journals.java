package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunStatus;
import dev.berth.spi.Journal;
import java.time.Instant;
import java.util.Optional;

/** The journal of a run that keeps none: for tests and library use that need no resume. */
final class Journals {

  static final Journal NONE = new Journal() {
    @Override
    public void start(String runName, String specJson, Instant startedAt) {}

    @Override
    public void append(TaskId task, TaskEvent event) {}

    @Override
    public void flush() {}

    @Override
    public void finish(RunStatus status, Instant finishedAt) {}

    @Override
    public Optional<Replay> replay() {
      return Optional.empty();
    }

    @Override
    public void close() {}
  };

  private Journals() {}
}
