package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import dev.berth.os.DaemonThreads;
import dev.berth.os.LogTails;
import dev.berth.spi.ExitListener;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Finds the ends of Slurm jobs for {@link SlurmExecutor}: one thread ({@code berth-slurm-tracker})
 * asks squeue about every live job in one call per round, and reports each end exactly once on
 * another thread ({@code berth-slurm-exit}), so a slow listener never delays polling.
 *
 * <p>Polling is the only way: Slurm has no notification a client can subscribe to (job mail and
 * {@code strigger} run programs on the controller, not in the submitting process). One squeue call per
 * round for all jobs keeps the controller's load independent of the number of tasks; the wait between
 * rounds starts at {@link SlurmSettings#pollInitial()} after any change and doubles up to
 * {@link SlurmSettings#pollMax()} while nothing changes. A failing squeue only costs a round.
 *
 * <p>Sources, most trusted first: the exit-code file written by the {@link BatchScript} for the
 * code; squeue for the state (finished jobs stay listed for the cluster's {@code MinJobAge}); sacct for
 * jobs squeue no longer lists; and after {@link SlurmSettings#lostAfter()} without any of them, the
 * job is reported lost.
 */
final class JobTracker {

  private static final int LOG_TAIL_BYTES = 64 * 1024;

  private final CommandRunner runner;
  private final SlurmSettings settings;
  private final Map<SlurmJobId, SlurmExecution> live = new ConcurrentHashMap<>();
  private final ExecutorService exits = Executors.newSingleThreadExecutor(DaemonThreads.named("berth-slurm-exit", false));
  private final Object lock = new Object();
  private final Backoff backoff;
  private long nextPollAt = Long.MAX_VALUE;
  private boolean closed;
  private volatile String lastError;
  private final AtomicLong polls = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private final Thread thread;

  JobTracker(CommandRunner runner, SlurmSettings settings) {
    this.runner = runner;
    this.settings = settings;
    this.backoff = new Backoff(settings.pollInitial(), settings.pollMax());
    this.thread = DaemonThreads.named("berth-slurm-tracker", false).newThread(this::loop);
    thread.start();
  }

  /** Starts tracking a submitted job. */
  void track(SlurmExecution execution) {
    live.put(execution.jobId(), execution);
    soon();
  }

  /** Makes the next poll come within the initial wait, e.g. after a submission or a cancellation. */
  void soon() {
    synchronized (lock) {
      backoff.reset();
      nextPollAt = Math.min(nextPollAt, System.nanoTime() + settings.pollInitial().toNanos());
      lock.notifyAll();
    }
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

  /** Stops both threads; exits found after this are not reported. */
  void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
    thread.interrupt();
    exits.shutdown();
  }

  private void loop() {
    while (true) {
      synchronized (lock) {
        try {
          while (!closed) {
            if (live.isEmpty()) {
              nextPollAt = Long.MAX_VALUE;
              lock.wait();
              continue;
            }
            long wait = nextPollAt - System.nanoTime();
            if (wait <= 0) {
              break;
            }
            lock.wait(Math.max(1, wait / 1_000_000));
          }
        } catch (InterruptedException e) {
          // close() interrupts; anything else is ignored, as the tracker must outlive its callers' mistakes
        }
        if (closed) {
          return;
        }
      }
      boolean changed;
      try {
        changed = poll();
      } catch (RuntimeException e) {
        fail("tracking failed: " + e);
        changed = false;
      }
      synchronized (lock) {
        nextPollAt = System.nanoTime() + backoff.next(changed).toNanos();
      }
    }
  }

  /** One round; whether any job changed state or ended. */
  private boolean poll() {
    List<SlurmExecution> jobs = List.copyOf(live.values());
    if (jobs.isEmpty()) {
      return false;
    }
    polls.incrementAndGet();
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
      fail("squeue exited with " + result.exitCode() + ": " + firstLine(result.stderr()));
      return false;
    }
    lastError = null;
    boolean changed = false;
    List<SlurmExecution> missing = new ArrayList<>();
    for (SlurmExecution e : jobs) {
      SqueueOutput.Row row = rows.get(e.jobId());
      if (row == null) {
        missing.add(e);
        continue;
      }
      e.missingSince(-1);
      changed |= e.observe(row.state());
      if (row.state().isTerminal()) {
        finish(e, row.state(), row.reason(), row.exit(), row.dependencyNeverSatisfied());
        changed = true;
      }
    }
    return resolveMissing(missing) || changed;
  }

  /** Asks sacct, then the exit-code files, about jobs squeue did not list. */
  private boolean resolveMissing(List<SlurmExecution> missing) {
    if (missing.isEmpty()) {
      return false;
    }
    Set<String> ids = new TreeSet<>();
    missing.forEach(e -> ids.add(e.jobId().queryId()));
    Map<SlurmJobId, SacctOutput.Row> rows = new HashMap<>();
    try {
      CommandRunner.Result result = runner.run(SacctOutput.command(ids), settings.commandTimeout());
      if (result.succeeded()) {
        for (SacctOutput.Row row : SacctOutput.parse(result.stdout())) {
          row.jobId().ifPresent(id -> rows.put(id, row));
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      // sacct is optional: clusters without accounting still have the exit-code files
    }
    boolean changed = false;
    long now = System.nanoTime();
    for (SlurmExecution e : missing) {
      SacctOutput.Row row = rows.get(e.jobId());
      if (row != null && row.state().isTerminal()) {
        finish(e, row.state(), row.reason(), row.exit(), row.dependencyNeverSatisfied());
        changed = true;
        continue;
      }
      OptionalInt code = exitCode(e);
      if (code.isPresent()) {
        report(e, Endings.forgotten(e.jobId(), code, code.getAsInt() == SlurmEnding.MEMORY_KILL_EXIT && memoryKilled(e)));
        changed = true;
      } else if (e.missingSince() < 0) {
        e.missingSince(now);
      } else if (now - e.missingSince() >= settings.lostAfter().toNanos()) {
        report(e, Endings.forgotten(e.jobId(), OptionalInt.empty(), false));
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
    report(e, Endings.of(e.jobId(), state, reason, exit, code, killed, dependencyNeverMet));
  }

  /** Reports an exit that needs no polling (an attempt never submitted) on the exit thread, like any other. */
  void reportLater(ExitListener listener, int exitCode) {
    try {
      exits.execute(() -> listener.exited(exitCode));
    } catch (RejectedExecutionException closedMeanwhile) {
      // closed: exits after close() are not reported
    }
  }

  private void report(SlurmExecution e, SlurmEnding ending) {
    if (!e.end(ending)) {
      return;
    }
    live.remove(e.jobId());
    try {
      exits.execute(() -> e.listener().exited(ending.exitCode()));
    } catch (RejectedExecutionException closedMeanwhile) {
      // closed: exits after close() are not reported
    }
  }

  private Optional<CommandRunner.Result> run(List<String> argv) {
    try {
      CommandRunner.Result result = runner.run(argv, settings.commandTimeout());
      if (result.timedOut()) {
        fail(argv.get(0) + " did not answer within " + settings.commandTimeout().toMillis() + " ms");
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
    return Endings.mentionsMemoryKill(LogTails.read(e.slurmLog(), e.slurmLogOffset(), LOG_TAIL_BYTES));
  }

  private static String firstLine(String text) {
    return text.strip().lines().findFirst().orElse("(no message)");
  }
}
