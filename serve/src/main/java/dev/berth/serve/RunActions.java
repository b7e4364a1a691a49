package dev.berth.serve;

import dev.berth.core.scheduling.RetrySelection;
import dev.berth.session.LiveRuns;
import dev.berth.session.LocalSession;
import dev.berth.session.RunEnd;
import dev.berth.session.SessionException;
import dev.berth.session.SessionOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What the API's POSTs ask of a run, done as {@code berth cancel} and {@code berth retry} do it: a
 * cancel request the live run's watcher picks up, and a retry that opens the ended run in a
 * {@link LocalSession} with the same {@link SessionOptions.Builder#retry retry selection} as {@code
 * berth retry}, running it in this process on a thread of its own. Closing interrupts the retries
 * still running, which stay resumable as after any signal.
 */
public final class RunActions implements AutoCloseable {

  private final Consumer<String> say;
  private final Map<Path, Retry> retries = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** Actions whose retries tell what they do on {@code say} (one line each, the run's name first). */
  public RunActions(Consumer<String> say) {
    this.say = say;
  }

  /** Asks the live run in {@code workdir} to cancel these tasks (ids, globs, group:NAME), all when none. */
  public void cancel(Path workdir, List<String> tasks, String reason) throws IOException {
    LiveRuns.cancel(workdir, tasks, reason);
  }

  /**
   * Reopens what {@code selection} chooses in the ended run in {@code workdir} and runs it again in
   * the background, as {@code berth retry} would.
   *
   * @return the run's end, once the retried tasks have run
   * @throws SessionException when the retry is refused (nothing to retry, a selector matching no task,
   *     the run held by another Berth, its tasks running in Slurm allocations); nothing started
   */
  public CompletableFuture<RunEnd> retry(Path workdir, RetrySelection selection) throws SessionException, IOException {
    if (closed) {
      throw new SessionException("the dashboard is stopping");
    }
    LocalSession session = LocalSession.open(SessionOptions.builder(workdir).retry(selection)
        .say(line -> say.accept(workdir.getFileName() + ": " + line))
        .warn(line -> say.accept(workdir.getFileName() + ": " + line)).build());
    if (session.inAllocations()) {
      session.close();
      throw new SessionException(workdir + ": its tasks run inside Slurm allocations; retry it with berth retry");
    }
    Retry retry = new Retry(session, new CompletableFuture<>());
    retries.put(workdir, retry);
    Thread thread = new Thread(() -> run(workdir, retry), "berth-retry-" + session.spec().name());
    thread.setDaemon(true);
    thread.start();
    return retry.end;
  }

  private void run(Path workdir, Retry retry) {
    RunEnd end = null;
    Throwable failure = null;
    try (LocalSession session = retry.session) {
      end = session.run();
      say.accept(workdir.getFileName() + ": retried; the run " + end.report().status());
    } catch (Throwable t) {
      failure = t;
      say.accept(workdir.getFileName() + ": the retry stopped: " + t);
    } finally {
      retries.remove(workdir, retry);
    }
    if (failure != null) { // told only once the session has let go of the run
      retry.end.completeExceptionally(failure);
    } else {
      retry.end.complete(end);
    }
  }

  /** Interrupts the retries still running and waits until each has ended and let go of its run. */
  @Override
  public void close() {
    closed = true;
    for (Retry r : retries.values()) {
      r.session.interrupt("interrupted: the dashboard stopped");
    }
    for (Retry r : retries.values()) {
      r.end.handle((end, failure) -> null).join();
    }
  }

  private record Retry(LocalSession session, CompletableFuture<RunEnd> end) {}
}
