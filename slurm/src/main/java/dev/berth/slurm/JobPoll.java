package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import dev.berth.os.LogTails;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * One round of {@link JobTracker}'s polling: asks squeue about every live job in one call, then sacct,
 * in one call with steps, about those squeue no longer lists or lists as ended (by their own ids: an
 * array's other elements are not read again), and the exit-code files, and says how each ended job
 * ended, what Slurm measured it to use and what its accounting recorded (times, nodes, state). Keeps
 * count of the rounds and of those that failed. One round at a time.
 *
 * <p>Sources, most trusted first: the exit-code file written by the {@link BatchScript} for the code;
 * squeue for the state (finished jobs stay listed for the cluster's {@code MinJobAge}); sacct for jobs
 * squeue no longer lists; and after {@link SlurmTuning#lostAfter()} without any of them, the job is
 * lost. A failing squeue only costs a round; sacct is optional.
 *
 * <p>An array element cancelled while pending leaves no record at all (see {@link SacctRecords}): one
 * squeue last saw pending and no longer lists, while it lists the rest of the array, ended so at once;
 * one that neither squeue nor sacct lists, while sacct lists its array, too (a resume after such a
 * cancel). Only for such elements, which sacct does not know by their own ids, is their array asked
 * about, without steps.
 */
final class JobPoll {

  private static final int LOG_TAIL_BYTES = 64 * 1024;
  /** How long a job squeue shows ended may wait for sacct to record what it used. */
  static final Duration MEASUREMENT_WAIT = Duration.ofSeconds(4);

  private final CommandRunner runner;
  private final SlurmTuning tuning;
  private final BiConsumer<SlurmExecution, SlurmEnding> ended;
  private volatile String lastError;
  private final AtomicLong polls = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();

  /**
   * Polls through {@code runner}.
   *
   * @param ended receives each job found ended and how, as soon as it is found
   */
  JobPoll(CommandRunner runner, SlurmTuning tuning, BiConsumer<SlurmExecution, SlurmEnding> ended) {
    this.runner = runner;
    this.tuning = tuning;
    this.ended = ended;
  }

  /**
   * Asks about {@code jobs} at {@code now}; whether any of them ended or was seen ended (a job that
   * merely started is no reason to ask again sooner). A round that throws counts as a failed round.
   */
  boolean run(List<SlurmExecution> jobs, Instant now) {
    if (jobs.isEmpty()) {
      return false;
    }
    polls.incrementAndGet();
    try {
      return ask(jobs, now);
    } catch (RuntimeException e) {
      fail("tracking failed: " + e);
      return false;
    }
  }

  /** When the first of {@code jobs} squeue no longer lists will be lost, if it is not found by then. */
  Optional<Instant> nextLoss(List<SlurmExecution> jobs) {
    return jobs.stream().flatMap(e -> e.missingSince().stream()).min(Instant::compareTo)
        .map(since -> since.plus(tuning.lostAfter()));
  }

  /** The error of the last round, if it failed. */
  Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  /** Rounds run so far. */
  long polls() {
    return polls.get();
  }

  /** Rounds that failed so far. */
  long failures() {
    return failures.get();
  }

  private boolean ask(List<SlurmExecution> jobs, Instant now) {
    Set<String> ids = new TreeSet<>();
    jobs.forEach(e -> ids.add(e.jobId().queryId()));
    Optional<CommandRunner.Result> answer = run(SqueueOutput.command(ids));
    if (answer.isEmpty()) {
      return false;
    }
    CommandRunner.Result result = answer.get();
    Map<SlurmJobId, SqueueOutput.Row> rows = new HashMap<>();
    if (result.succeeded()) {
      SqueueOutput.parse(result.stdout()).forEach(row -> rows.put(row.id(), row));
    } else if (!SqueueOutput.knowsNone(result)) {
      fail("squeue exited with " + result.exitCode() + ": " + firstLine(result.stderr())
          + (SlurmFailures.transientQuery(result) ? " (asking again)" : ""));
      return false;
    }
    lastError = null;
    Set<String> listedArrays = new TreeSet<>();
    rows.keySet().forEach(id -> listedArrays.add(id.queryId()));
    boolean changed = false;
    List<SlurmExecution> missing = new ArrayList<>();
    List<SlurmExecution> finished = new ArrayList<>();
    for (SlurmExecution e : jobs) {
      SqueueOutput.Row row = rows.get(e.jobId());
      if (row == null && e.lastSeenPending() && e.jobId().isArrayElement()
          && listedArrays.contains(e.jobId().queryId())) {
        ended.accept(e, SlurmEndings.droppedWhilePending(e.jobId(), exitCode(e)));
        changed = true;
      } else if (row == null) {
        missing.add(e);
      } else {
        e.missingSince(Optional.empty());
        e.observe(row.state());
        if (row.state().isTerminal()) {
          finished.add(e);
          changed = true;
        }
      }
    }
    if (missing.isEmpty() && finished.isEmpty()) {
      return changed;
    }
    Optional<SacctRecords> records = sacct(missing, finished);
    SacctRecords known = records.orElse(SacctRecords.of(List.of()));
    for (SlurmExecution e : finished) {
      SqueueOutput.Row row = rows.get(e.jobId());
      if (records.isPresent() && awaitsMeasurements(e, row.state(), known, now)) {
        continue;
      }
      e.measured(known.usage(e.jobId()), known.accounting(e.jobId()));
      finish(e, row.state(), row.reason(), row.exit(), row.dependencyNeverSatisfied());
    }
    return resolveMissing(missing, known, now) || changed;
  }

  /**
   * One sacct call, with steps, about the jobs squeue no longer lists and those it lists as ended (whose
   * steps say what they used), by their own ids; and for elements of arrays it no longer lists, that
   * sacct does not know by their own ids either, a second one about their arrays, without steps, which
   * tells an element cancelled while pending. Empty when sacct cannot answer.
   */
  private Optional<SacctRecords> sacct(List<SlurmExecution> missing, List<SlurmExecution> finished) {
    Set<String> ids = new TreeSet<>();
    missing.forEach(e -> ids.add(e.jobId().value()));
    finished.forEach(e -> ids.add(e.jobId().value()));
    Optional<List<SacctOutput.Row>> rows = sacctRows(SacctOutput.commandWithSteps(ids));
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    SacctRecords records = SacctRecords.of(rows.get());
    Set<String> arrays = new TreeSet<>();
    missing.stream().filter(e -> e.jobId().isArrayElement() && records.row(e.jobId()).isEmpty())
        .forEach(e -> arrays.add(e.jobId().queryId()));
    if (arrays.isEmpty()) {
      return Optional.of(records);
    }
    List<SacctOutput.Row> all = new ArrayList<>(rows.get());
    sacctRows(SacctOutput.command(arrays)).ifPresent(all::addAll);
    return Optional.of(SacctRecords.of(all));
  }

  private Optional<List<SacctOutput.Row>> sacctRows(List<String> argv) {
    try {
      CommandRunner.Result result = runner.run(argv, tuning.commandTimeout());
      if (result.succeeded()) {
        return Optional.of(SacctOutput.parse(result.stdout()));
      }
    } catch (IOException | IllegalArgumentException e) {
      // sacct is optional: clusters without accounting still have squeue and the exit-code files
    }
    return Optional.empty();
  }

  /**
   * Whether to report a job that ran and ended a round later, because sacct has no record of its steps yet
   * (it lags squeue by a moment): for at most {@link #MEASUREMENT_WAIT} after the end was first seen.
   */
  private static boolean awaitsMeasurements(SlurmExecution e, SlurmState state, SacctRecords records, Instant now) {
    boolean ran = state == SlurmState.COMPLETED || state == SlurmState.FAILED || state == SlurmState.OUT_OF_MEMORY
        || state == SlurmState.TIMEOUT;
    return ran && !records.hasSteps(e.jobId())
        && Duration.between(e.endSeenSince(now), now).compareTo(MEASUREMENT_WAIT) < 0;
  }

  /** Asks sacct's records, then the exit-code files, about jobs squeue did not list. */
  private boolean resolveMissing(List<SlurmExecution> missing, SacctRecords records, Instant now) {
    boolean changed = false;
    for (SlurmExecution e : missing) {
      Optional<SacctOutput.Row> row = records.row(e.jobId());
      if (row.isPresent() && row.get().state().isTerminal()) {
        SacctOutput.Row r = row.get();
        e.measured(records.usage(e.jobId()), records.accounting(e.jobId()));
        finish(e, r.state(), r.reason(), r.exit(), r.dependencyNeverSatisfied());
        changed = true;
        continue;
      }
      OptionalInt code = exitCode(e);
      if (code.isPresent()) {
        ended.accept(e, SlurmEndings.forgotten(e.jobId(), code,
            code.getAsInt() == SlurmEnding.MEMORY_KILL_EXIT && memoryKilled(e)));
        changed = true;
      } else if (records.droppedWhilePending(e.jobId())) {
        ended.accept(e, SlurmEndings.droppedWhilePending(e.jobId(), code));
        changed = true;
      } else if (e.missingSince().isEmpty()) {
        e.missingSince(Optional.of(now));
      } else if (Duration.between(e.missingSince().get(), now).compareTo(tuning.lostAfter()) >= 0) {
        ended.accept(e, SlurmEndings.forgotten(e.jobId(), OptionalInt.empty(), false));
        changed = true;
      }
    }
    return changed;
  }

  private void finish(SlurmExecution e, SlurmState state, String reason, SlurmExit exit, boolean dependencyNeverMet) {
    OptionalInt code = exitCode(e);
    boolean killed = state == SlurmState.FAILED
        && (exit.signal() == 9 || (code.isPresent() && code.getAsInt() == SlurmEnding.MEMORY_KILL_EXIT))
        && memoryKilled(e);
    ended.accept(e, SlurmEndings.of(e.jobId(), state, reason, exit, code, killed, dependencyNeverMet));
  }

  private Optional<CommandRunner.Result> run(List<String> argv) {
    try {
      CommandRunner.Result result = runner.run(argv, tuning.commandTimeout());
      if (result.timedOut()) {
        fail(argv.get(0) + " did not answer within " + tuning.commandTimeout().toMillis() + " ms");
        return Optional.empty();
      }
      return Optional.of(result);
    } catch (IOException e) {
      fail("cannot run " + argv.get(0) + ": " + e.getMessage());
      return Optional.empty();
    }
  }

  private void fail(String error) {
    failures.incrementAndGet();
    lastError = error;
  }

  private static OptionalInt exitCode(SlurmExecution e) {
    try {
      return OptionalInt.of(Integer.parseInt(Files.readString(e.exitCodeFile()).strip()));
    } catch (IOException | NumberFormatException notWritten) {
      return OptionalInt.empty();
    }
  }

  /** Whether Slurm's messages written for this attempt report a memory kill. */
  private static boolean memoryKilled(SlurmExecution e) {
    return SlurmEndings.mentionsMemoryKill(LogTails.read(e.slurmLog(), e.slurmLogOffset(), LOG_TAIL_BYTES));
  }

  private static String firstLine(String text) {
    return text.strip().lines().findFirst().orElse("(no message)");
  }
}
