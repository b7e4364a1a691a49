package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import dev.berth.spi.Timers;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

/**
 * Runs a Slurm command again while it fails transiently ({@link SlurmFailures}), waiting
 * {@link #FIRST_WAIT} and then twice as long each time up to {@link #LONGEST_WAIT}, for at most
 * {@link SlurmConfig#retryFor()} in all; then, or at the first permanent failure, returns the last
 * answer. The waits are the injected {@link Timers}' (the caller blocks on a future the timer
 * completes, so a fake clock drives them in tests) and the deadline is the injected clock's.
 * Thread-safe; {@link #close()} ends every wait at once with the answer so far.
 */
final class CommandRetry {

  /** The wait before the first retry. */
  static final Duration FIRST_WAIT = Duration.ofSeconds(1);
  /** The longest wait between two tries. */
  static final Duration LONGEST_WAIT = Duration.ofSeconds(30);

  private final CommandRunner runner;
  private final Duration retryFor;
  private final Duration commandTimeout;
  private final InstantSource clock;
  private final Timers timers;
  private final Set<CompletableFuture<Void>> waits = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  /**
   * Tries again for {@code retryFor} ({@code slurm.retry-for}), each try within {@code commandTimeout}.
   */
  CommandRetry(CommandRunner runner, Duration retryFor, Duration commandTimeout, InstantSource clock, Timers timers) {
    this.runner = runner;
    this.retryFor = retryFor;
    this.commandTimeout = commandTimeout;
    this.clock = clock;
    this.timers = timers;
  }

  /**
   * An answer and how long Berth kept trying for it.
   *
   * @param result the last answer
   * @param tries how many times the command ran
   * @param triedFor the time from the first try to the last answer
   */
  record Answer(CommandRunner.Result result, int tries, Duration triedFor) {

    /** " (tried N times over D)" when the command ran more than once, else empty: for error messages. */
    String retriesNote() {
      return tries < 2 ? "" : " (tried " + tries + " times over " + triedFor.toSeconds() + " s)";
    }
  }

  /**
   * Runs {@code argv} until it succeeds, fails permanently or {@code retryFor} has passed.
   *
   * @param worthRetrying whether an answer is a transient failure
   * @throws IOException when the command cannot be started at all (not retried: it is not there)
   */
  Answer run(List<String> argv, Predicate<CommandRunner.Result> worthRetrying) throws IOException {
    Instant start = clock.instant();
    Instant deadline = start.plus(retryFor);
    Duration wait = FIRST_WAIT;
    int tries = 0;
    while (true) {
      CommandRunner.Result result = runner.run(argv, commandTimeout);
      tries++;
      Instant now = clock.instant();
      if (closed || !worthRetrying.test(result) || !now.isBefore(deadline)) {
        return new Answer(result, tries, Duration.between(start, now));
      }
      Duration left = Duration.between(now, deadline);
      if (!waitFor(left.compareTo(wait) < 0 ? left : wait)) {
        return new Answer(result, tries, Duration.between(start, clock.instant()));
      }
      wait = wait.multipliedBy(2).compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait.multipliedBy(2);
    }
  }

  /** Ends every wait under way; their commands return the answer they had. */
  void close() {
    closed = true;
    waits.forEach(w -> w.complete(null));
  }

  /** Waits {@code delay} on the timers; false when interrupted (the interrupt is kept) or closed. */
  private boolean waitFor(Duration delay) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    waits.add(done);
    Timers.Cancellable timer = timers.schedule(delay, () -> done.complete(null));
    try {
      if (closed) {
        return false;
      }
      done.get();
      return !closed;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException cannotHappen) {
      return false;
    } finally {
      timer.cancel();
      waits.remove(done);
    }
  }
}
