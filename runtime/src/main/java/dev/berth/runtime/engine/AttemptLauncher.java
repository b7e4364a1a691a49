package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.TaskId;
import dev.berth.core.scheduling.Decision;
import dev.berth.core.scheduling.Endings;
import dev.berth.core.scheduling.Retries;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.DaemonThreads;
import dev.berth.spi.Execution;
import dev.berth.spi.Executor;
import dev.berth.spi.ExitListener;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Upstream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Starts the attempts the scheduler decided, through the executor, and on a cluster finds again the
 * jobs an earlier Berth submitted. Launches are journalled before their processes exist
 * (write-ahead); the executor gets a whole pass at once, so it can submit matrix tasks together.
 *
 * <p>With {@link #launchOnThreads launch threads}, each attempt's process is started on one of them
 * instead of on the loop, which meanwhile handles exits and decides: starting a process is most of
 * what a short task costs the loop. The loop learns of the start, or of its failure, through its
 * inbox, before the attempt's exit (see {@link LaunchHandoff}); until then the attempt counts as
 * live and a kill waits for it (see {@link LiveExecutions}). Attempts the executor holds for running
 * parents (a cluster's job dependencies) and two-stage tasks, whose first messages must find their
 * start recorded, start on the loop. Called on the loop thread only.
 */
final class AttemptLauncher {

  /** What the launcher needs of the run around it; the engine's loop is the one implementation. */
  interface Context {
    /** The run's tasks, read only. */
    RunState state();

    Instant now();

    void record(TaskId id, TaskEvent event);

    LiveExecutions executions();

    /** What the executor calls when the attempt's process exits (see {@link AttemptExits#listenerFor}). */
    ExitListener listenerFor(LaunchRequest request);

    /** Runs {@code step} on the loop thread, after the messages already waiting there. */
    void toLoop(Runnable step);
  }

  private final Context run;
  private final Executor executor;
  private final LaunchRequests launchRequests;
  private java.util.concurrent.Executor threads;

  AttemptLauncher(Context run, Executor executor, LaunchRequests requests) {
    this.run = run;
    this.executor = executor;
    this.launchRequests = requests;
  }

  /** Starts processes on {@code count} launch threads of its own from now on (see the class comment). */
  void launchOnThreads(int count) {
    ThreadPoolExecutor pool = new ThreadPoolExecutor(count, count, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        DaemonThreads.named("berth-launch", true));
    pool.allowCoreThreadTimeOut(true);
    launchOn(pool);
  }

  /** Starts processes on these threads from now on. */
  void launchOn(java.util.concurrent.Executor launchThreads) {
    threads = launchThreads;
  }

  /** Ends launch threads of its own once their launches are done (the run has ended: there are none). */
  void close() {
    if (threads instanceof ExecutorService own) {
      own.shutdown();
    }
  }

  /**
   * Starts the processes of attempts whose launches are already journalled, so a scheduler killed at
   * any point never leaves a task process the journal does not know about; a resumed run finds such
   * a process by the variables it was given (see {@link Recovery}), or, on a cluster, by the job id
   * the executor recorded.
   */
  void spawn(List<Decision.Start> starts) {
    List<Decision.Start> left = new ArrayList<>(starts);
    while (!left.isEmpty()) {
      // Waves: a task the cluster is to hold for parents starting in this same pass goes after them,
      // once their executions exist.
      Set<TaskId> waiting = new TreeSet<>();
      left.forEach(s -> waiting.add(s.task()));
      List<Decision.Start> wave = new ArrayList<>();
      for (Decision.Start start : left) {
        boolean parentsLaunching = start.upstream()
            .map(d -> d.tasks().stream().anyMatch(waiting::contains)).orElse(false);
        if (!parentsLaunching) {
          wave.add(start);
        }
      }
      if (wave.isEmpty() || wave.size() == left.size()) {
        // All at once, the usual pass (an empty wave cannot happen for a graph without cycles; never
        // loop forever); a removeAll of the whole list compared every start with every other.
        launch(left);
        return;
      }
      left.removeAll(wave);
      launch(wave);
    }
  }

  /**
   * On a cluster, jobs outlive the Berth that submitted them: each attempt the journal says was
   * running is found again by the job id its executor recorded, and watched to its end (which may
   * already have come). An attempt without a recorded job was never submitted and runs again
   * without using any retry budget.
   */
  void reattach() {
    for (Map.Entry<TaskId, TaskEvent.Launched> e : new ArrayList<>(run.state().running().entrySet())) {
      TaskRecord r = run.state().task(e.getKey());
      LaunchRequest request = launchRequests.request(r, e.getValue().attempt(), e.getValue().placement());
      Optional<Execution> found = executor.reattach(request, run.listenerFor(request));
      if (found.isPresent()) {
        run.executions().put(e.getKey(), found.get());
        if (r.history().attempts().get(r.history().attemptCount() - 1).clusterId().isEmpty()) {
          recordSubmission(e.getKey(), e.getValue().attempt(), found.get()); // the last Berth died before journalling it
        }
      } else {
        run.record(e.getKey(), Endings.readyAgain(run.now(),
            "the scheduler stopped before this attempt was submitted; the task runs again"));
      }
    }
  }

  private void launch(List<Decision.Start> starts) {
    List<LaunchRequest> requests = new ArrayList<>();
    for (Decision.Start start : starts) {
      TaskRecord r = run.state().task(start.task());
      LaunchRequest request = launchRequests.request(r, start.attempt(), start.placement());
      Optional<Upstream> upstream = start.upstream().flatMap(this::upstream);
      if (start.upstream().isPresent() && upstream.isEmpty()) {
        run.record(start.task(), Endings.readyAgain(run.now(),
            "a parent it was to wait for has no running job any more; the task waits for its dependencies again"));
        continue;
      }
      requests.add(upstream.map(request::withUpstream).orElse(request));
    }
    if (requests.isEmpty()) {
      return;
    }
    boolean onThreads = threads != null && !executor.holdsUpstream();
    List<LaunchRequest> onLoop = new ArrayList<>();
    for (LaunchRequest request : requests) {
      if (onThreads && !run.state().task(request.task()).spec().twoStage()) {
        launchOnThread(request);
      } else {
        onLoop.add(request);
      }
    }
    if (!onLoop.isEmpty()) {
      for (Launch launch : executor.launchAll(onLoop, run::listenerFor)) {
        launchRequests.showLogs(launch);
        started(launch, run.now());
      }
    }
  }

  private void launchOnThread(LaunchRequest request) {
    run.executions().launching(request.task());
    LaunchHandoff handoff = new LaunchHandoff(run.listenerFor(request), run::toLoop);
    threads.execute(() -> {
      Launch launch;
      try {
        launch = executor.launchAll(List.of(request), r -> handoff.listener()).get(0);
      } catch (RuntimeException e) { // a closed executor, say: the attempt must still end, or the run never would
        launch = Launch.failed(request, new LaunchException(String.valueOf(e.getMessage()), e));
      }
      Launch done = launch;
      launchRequests.showLogs(done);
      Instant at = run.now();
      handoff.told(() -> {
        if (done.execution().isEmpty()) {
          run.executions().launchFailed(request.task());
          Optional<Decision.Kill> kill = run.executions().takeKill(request.task());
          if (kill.isPresent()) {
            // Berth was ending the attempt anyway: an interruption leaves the task to the resume, any
            // other reason ends it with the start's failure, without a retry.
            TaskEvent.Ended failed = Endings.startFailed(at, done.failure().orElseThrow().getMessage());
            run.record(request.task(), kill.get().outcome() == Outcome.INTERRUPTED
                ? Endings.interrupted(failed, kill.get().reason()) : failed);
            return;
          }
        }
        started(done, at);
      });
    });
  }

  /** Records the attempt's start (at {@code at}) or its failure to start. */
  private void started(Launch launch, Instant at) {
    TaskId id = launch.request().task();
    if (launch.execution().isPresent()) {
      run.executions().put(id, launch.execution().get());
      long pid = launch.execution().get().pid();
      if (pid > 0) {
        run.record(id, new TaskEvent.Started(at, launch.request().attempt(), pid));
      }
      recordSubmission(id, launch.request().attempt(), launch.execution().get());
    } else if (launch.failure().orElseThrow().startsLater()) {
      // The cluster holds as many of the run's jobs as it takes now: no failure, and no retry spent;
      // the executor's job limits keep the task waiting, with the cluster's answer as the reason.
      run.record(id, Endings.readyAgain(at, launch.failure().get().getMessage()
          + "; the task waits for room in the cluster's queue"));
    } else {
      run.record(id, Retries.retryIfAllowed(run.state().task(id),
          Endings.startFailed(at, launch.failure().orElseThrow().getMessage())));
    }
  }

  /** Journals the id a cluster gave the attempt, so reports and a later Berth know its job. */
  private void recordSubmission(TaskId id, int attempt, Execution execution) {
    execution.clusterId().ifPresent(job -> run.record(id, new TaskEvent.Submitted(run.now(), attempt, job)));
  }

  /** The running parents the executor is to hold an attempt back for, or empty when one has no execution. */
  private Optional<Upstream> upstream(Dependency dependency) {
    List<Execution> parents = new ArrayList<>();
    for (TaskId parent : dependency.tasks()) {
      Execution e = run.executions().get(parent);
      if (e == null) {
        return Optional.empty();
      }
      parents.add(e);
    }
    return Optional.of(new Upstream(parents, dependency.all(), dependency.success(), dependency.failure()));
  }
}
