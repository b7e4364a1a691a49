package dev.berth.session;

import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.journal.JournalReader;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.report.FailureTails;
import dev.berth.spi.Journal;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A run as its journal tells it, read without disturbing a live run: the state (the core's fold
 * over the stored events) and the report folded from it. For {@code berth status}, {@code berth
 * report}, {@code berth cancel}, and for rebuilding the reports of a run that ended before its
 * scheduler wrote them.
 *
 * @param layout the run's folder
 * @param replay what the journal holds
 * @param state the fold of its events
 */
public record JournalView(RunLayout layout, Journal.Replay replay, RunState state) {

  /** Reads the run in {@code runDir}; a missing, foreign or damaged journal is a {@link SessionException}. */
  public static JournalView read(Path runDir) throws SessionException {
    if (!Files.isDirectory(runDir)) {
      throw new SessionException(runDir + ": no such run workdir");
    }
    Path file = RunJournal.file(runDir);
    if (!Files.exists(file)) {
      throw new SessionException(runDir + ": not a Berth run workdir (no " + file + ")");
    }
    try (JournalReader reader = JournalReader.open(file)) {
      Optional<Journal.Replay> replay = reader.read();
      if (replay.isEmpty()) {
        throw new SessionException(runDir + ": the run here never started");
      }
      RunState state = JournalReader.state(replay.get(), AdapterTables.ALL);
      return new JournalView(TaskRunners.layout(state.spec(), new RunLayout(runDir)), replay.get(), state);
    } catch (JournalException e) {
      throw new SessionException(e.getMessage());
    } catch (RuntimeException e) {
      throw new SessionException(file + ": cannot be read as a Berth journal: " + e.getMessage());
    }
  }


  /** The journal's file in a run folder, {@code <runDir>/.berth/journal.db}. */
  public static Path file(Path runDir) {
    return RunJournal.file(runDir);
  }

  /** The run folder to use when none is given: the most recently changed run under ./berth-out. */
  public static Optional<Path> latest() {
    Path root = Path.of("berth-out");
    if (!Files.isDirectory(root)) {
      return Optional.empty();
    }
    try (Stream<Path> runs = Files.list(root)) {
      return runs.filter(p -> Files.exists(RunJournal.file(p)))
          .max(Comparator.comparing(p -> RunJournal.file(p).toFile().lastModified()));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The report as of {@code now} (or the run's end, when it ended): with the status its journal
   * recorded; a run that has not ended and that no Berth runs now was stopped, and is
   * {@link RunStatus#INTERRUPTED} until it resumes.
   */
  public RunReport report(Instant now) {
    Instant end = replay.run().finishedAt().orElse(null);
    RunStatus status = replay.run().status()
        .orElse(LiveRuns.isLive(layout.runDir()) ? null : RunStatus.INTERRUPTED);
    return FailureTails.added(RunReport.of(state, replay.run().startedAt(), end != null ? end : now, status,
        spec -> layout.taskDir(spec).toString())).withRevisions(replay.revisions());
  }
}
