package dev.berth.session;

import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.RetrySelection;
import dev.berth.core.scheduling.RunState;
import dev.berth.journal.JournalReader;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A retry of a run in its journal ({@code berth retry}, or the Java API's retry option): the tasks
 * the {@link RetrySelection} chooses are reopened, each by a {@link TaskEvent.Reopened} event, and a
 * run that had ended becomes live again, in one flush; then the run resumes as any other. Nothing is
 * deleted: the history keeps every earlier attempt.
 */
final class Retrying {

  /** The reason each reopened task's event gives. */
  static final String REASON = "berth retry";

  private Retrying() {}

  /**
   * Reopens what {@code selection} chooses in the journal's run and returns the journal's new replay.
   *
   * @throws SessionException naming the selector that matches no task, or when nothing is left to
   *     run: the run ended and no task it chose ended without success
   */
  static Journal.Replay reopen(Journal journal, Journal.Replay replay, RetrySelection selection, Path runDir,
      Instant now) throws SessionException, JournalException {
    RunState state = JournalReader.state(replay, AdapterTables.ALL);
    List<TaskId> tasks;
    try {
      tasks = selection.tasksIn(state);
    } catch (IllegalArgumentException e) {
      throw new SessionException(runDir + ": " + e.getMessage());
    }
    boolean ended = replay.run().status().isPresent();
    if (tasks.isEmpty()) {
      if (ended) {
        throw new SessionException(runDir + ": nothing to retry in " + replay.run().name() + ": "
            + selection.describeNone());
      }
      return replay;
    }
    for (TaskId id : tasks) {
      journal.append(id, new TaskEvent.Reopened(now, REASON));
    }
    if (ended) {
      journal.reopenRun();
    }
    journal.flush();
    return journal.replay().orElseThrow();
  }
}
