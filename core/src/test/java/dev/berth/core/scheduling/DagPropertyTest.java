package dev.berth.core.scheduling;

import static dev.berth.core.scheduling.SchedulingFixtures.GIB;
import static dev.berth.core.scheduling.SchedulingFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RetryPolicy;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random DAGs run to the end under a fake time by a tiny driver that does what the engine does:
 * decide, carry out releases, starts, failures and settles, repeat until a pass changes nothing,
 * then move time to the next process exit or to the pass's {@code wakeAt}, and end attempts with
 * random exit codes. Random cancels of single tasks and of the whole run are mixed in. Every
 * expectation is computed here from the contract, not read back from the scheduler.
 */
class DagPropertyTest {

  private static final String USER_CANCEL = "cancelled by the property test";
  private static final String RUN_CANCEL = "whole run cancelled by the property test";

  static Stream<Long> seeds() {
    return IntStream.range(0, 200).mapToObj(i -> (long) i);
  }

  /** What the runs covered, over all seeds: so that a generator gone blind fails too. */
  private static final Map<String, Integer> SEEN = new java.util.concurrent.ConcurrentHashMap<>();

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyTaskEndsAndNoTaskStartsBeforeItsEdgesAreMet(long seed) {
    new Simulation(seed).run();
  }

  @org.junit.jupiter.api.AfterAll
  static void theSeedsCoveredEveryKindOfEnding() {
    if (SEEN.getOrDefault("runs", 0) < 150) {
      return; // a single seed was run by hand
    }
    assertThat(SEEN).as("coverage over all seeds").containsKeys(
        "runs", "parallel", "sequential", "SUCCEEDED", "FAILED", "UNREACHABLE", "CANCELLED", "TIMED_OUT",
        "settled CANCELLED", "settled TIMED_OUT", "kill", "retry", "any-edge met", "failure-edge met",
        "start failed", "run cancelled");
  }

  static void saw(String what) {
    SEEN.merge(what, 1, Integer::sum);
  }

  // ------------------------------------------------------------------------------------------
  // The contract, written independently of DependencyCheck and Scheduler.

  enum Verdict { MET, PENDING, IMPOSSIBLE }

  static boolean satisfies(Dependency d, TaskState s) {
    switch (s) {
      case SUCCEEDED:
        return d.success();
      case FAILED:
      case TIMED_OUT:
      case UNREACHABLE:
        return d.failure();
      default:
        return false;
    }
  }

  static Verdict verdict(Dependency d, RunState state) {
    int ok = 0;
    int dead = 0;
    for (TaskId p : d.tasks()) {
      TaskState s = state.task(p).state();
      if (satisfies(d, s)) {
        ok++;
      } else if (s.isTerminal()) {
        dead++;
      }
    }
    int n = d.tasks().size();
    if (d.all() ? ok == n : ok > 0) {
      return Verdict.MET;
    }
    if (d.all() ? dead > 0 : dead == n) {
      return Verdict.IMPOSSIBLE;
    }
    return Verdict.PENDING;
  }

  static List<Dependency> edges(TaskSpec t) {
    List<Dependency> e = new ArrayList<>();
    t.after().ifPresent(e::add);
    t.follow().ifPresent(e::add);
    return e;
  }

  // ------------------------------------------------------------------------------------------

  /** A pending process exit. */
  record Exit(Instant at, int attempt, int code) {}

  static final class Simulation {
    final long seed;
    final Random rnd;
    final RunSpec spec;
    final int hostCpus;
    final RunState state;
    final Scheduler scheduler;
    final Map<TaskId, Exit> exits = new TreeMap<>();
    final Map<TaskId, Decision.Kill> killing = new TreeMap<>();
    final Map<TaskId, Instant> lastEnd = new HashMap<>();
    Instant now = T0;
    boolean runCancelled;
    int launches;

    Simulation(long seed) {
      this.seed = seed;
      this.rnd = new Random(seed);
      this.hostCpus = 2 + rnd.nextInt(4);
      this.spec = randomSpec();
      this.state = new RunState(spec);
      this.scheduler = new Scheduler(spec.config());
    }

    private String where() {
      return "seed " + seed + " at +" + Duration.between(T0, now).toMillis() + "ms";
    }

    private RunSpec randomSpec() {
      int n = 1 + rnd.nextInt(60);
      boolean parallel = rnd.nextBoolean();
      int groupCount = 1 + rnd.nextInt(4);
      int[] groupOf = new int[n];
      for (int i = 0; i < n; i++) {
        groupOf[i] = rnd.nextInt(groupCount);
      }
      if (!parallel) {
        java.util.Arrays.sort(groupOf); // parents (earlier tasks) are in the same or an earlier group
      }
      List<List<TaskSpec>> byGroup = new ArrayList<>();
      for (int g = 0; g < groupCount; g++) {
        byGroup.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        String group = "g" + groupOf[i];
        TaskSpec.Builder b = TaskSpec.builder("t" + i, group).command("work", "t" + i)
            .cpus(randomCpus())
            .priority(rnd.nextInt(5) - 2);
        if (i > 0 && rnd.nextInt(10) < 6) {
          b.after(randomEdge(i));
        }
        if (i > 0 && rnd.nextInt(10) < 2) {
          b.follow(randomEdge(i));
        }
        int retries = rnd.nextInt(3);
        Duration delay = List.of(Duration.ZERO, Duration.ofMillis(500), Duration.ofSeconds(3)).get(rnd.nextInt(3));
        double backoff = 1 + rnd.nextInt(3);
        Duration max = Duration.ofSeconds(1 + rnd.nextInt(20));
        b.retry(new RetryPolicy(retries, delay, backoff, max));
        if (rnd.nextInt(5) == 0) {
          b.timeout(Duration.ofMillis(500 + rnd.nextInt(8000)));
        }
        if (rnd.nextInt(7) == 0) {
          b.queueTimeout(Duration.ofMillis(1000 + rnd.nextInt(30_000)));
        }
        byGroup.get(groupOf[i]).add(b.build());
      }
      List<GroupSpec> groups = new ArrayList<>();
      for (int g = 0; g < groupCount; g++) {
        groups.add(new GroupSpec("g" + g, byGroup.get(g)));
      }
      SchedulerConfig config = SchedulerConfig.builder()
          .set(SchedulerKeys.MAX_PROCESS, rnd.nextInt(4))
          .set(SchedulerKeys.CPU_UTILIZATION_LIMIT, 1.0)
          .set(SchedulerKeys.MEMORY_UTILIZATION_LIMIT, 1.0)
          .set(SchedulerKeys.REMAIN_MEMORY, 0L)
          .build();
      return new RunSpec("dag", "runs/dag", config, groups, parallel);
    }

    private double randomCpus() {
      int r = rnd.nextInt(100);
      if (r < 3) {
        return 64; // can never be placed: fails at once, which satisfies failure edges
      }
      return List.of(0.0, 0.5, 1.0, 1.0, 2.0).get(rnd.nextInt(5));
    }

    private Dependency randomEdge(int i) {
      int k = 1 + rnd.nextInt(Math.min(3, i));
      Set<TaskId> parents = new LinkedHashSet<>();
      while (parents.size() < k) {
        parents.add(TaskId.of("t" + rnd.nextInt(i)));
      }
      int flags = rnd.nextInt(3);
      return new Dependency(List.copyOf(parents), rnd.nextBoolean(), flags != 1, flags != 0);
    }

    private HostSnapshot host() {
      return new HostSnapshot(now, hostCpus, -1, 64 * GIB, 64 * GIB, new TreeMap<>());
    }

    void run() {
      saw("runs");
      saw(spec.groupsInParallel() ? "parallel" : "sequential");
      boolean cancelWholeRun = rnd.nextInt(10) == 0;
      for (int step = 0; step < 100_000; step++) {
        settleToQuiet();
        if (state.isFinished() && exits.isEmpty()) {
          checkFinalState();
          return;
        }
        Optional<Instant> wake = runCancelled ? Optional.empty() : scheduler.decide(state, host(), now).wakeAt();
        if (wake.isPresent()) {
          assertThat(wake.get()).as("%s: a quiet pass asks to wake now or in the past (busy loop)", where())
              .isAfter(now);
        }
        Instant next = exits.values().stream().map(Exit::at).min(Instant::compareTo).orElse(null);
        if (wake.isPresent() && (next == null || wake.get().isBefore(next))) {
          next = wake.get();
        }
        if (next == null) {
          fail("%s: stuck — unfinished tasks but no exit pending and no wakeAt: %s", where(), unfinished());
        }
        assertThat(next).as("%s: time never goes back", where()).isAfterOrEqualTo(now);
        now = next;
        deliverExitsDueNow();
        if (rnd.nextInt(30) == 0) {
          cancelRandomTask();
        }
        if (cancelWholeRun && !runCancelled && rnd.nextInt(40) == 0) {
          cancelRun();
        }
      }
      fail("%s: did not finish within 100000 steps: %s", where(), unfinished());
    }

    private List<String> unfinished() {
      return state.tasks().stream().filter(r -> !r.state().isTerminal())
          .map(r -> r.spec().id() + "=" + r.state()).toList();
    }

    /** Decides and carries out until a pass changes nothing (the engine's drain). */
    private void settleToQuiet() {
      for (int passes = 0; passes < 10_000; passes++) {
        if (runCancelled) {
          settleCancelled();
          return;
        }
        Decisions d = scheduler.decide(state, host(), now);
        // settles are judged against the state the pass saw, before any of its actions is carried out
        for (Decision x : d.actions()) {
          if (x instanceof Decision.Settle settle) {
            checkSettle(state.task(x.task()), settle);
          }
        }
        boolean changed = false;
        for (Decision x : d.actions()) {
          changed |= carryOut(x);
        }
        if (!changed) {
          checkQuiet();
          return;
        }
      }
      fail("%s: decisions never settled", where());
    }

    private boolean carryOut(Decision x) {
      TaskRecord r = state.task(x.task());
      if (x instanceof Decision.Release) {
        assertThat(r.state()).as("%s: released %s", where(), x.task()).isEqualTo(TaskState.QUEUED);
        checkTurnCame(r, "release");
        for (Dependency e : edges(r.spec())) {
          assertThat(verdict(e, state)).as("%s: %s released with %s", where(), x.task(), e).isEqualTo(Verdict.MET);
        }
        state.apply(x.task(), new TaskEvent.Released(now));
        return true;
      }
      if (x instanceof Decision.Start s) {
        launch(r, s);
        return true;
      }
      if (x instanceof Decision.Fail f) {
        assertThat(f.reason()).as("%s: fail reason", where()).isNotBlank();
        state.apply(x.task(), new TaskEvent.Settled(now, TaskState.FAILED, f.reason()));
        return true;
      }
      if (x instanceof Decision.Settle s) {
        saw("settled " + s.state());
        state.apply(x.task(), new TaskEvent.Settled(now, s.state(), s.reason()));
        return true;
      }
      Decision.Kill k = (Decision.Kill) x;
      assertThat(k.outcome()).isEqualTo(Outcome.TIMED_OUT);
      TaskEvent.Launched launch = state.running().get(k.task());
      assertThat(launch).as("%s: kill of %s which does not run", where(), k.task()).isNotNull();
      assertThat(now).as("%s: %s killed before its timeout", where(), k.task())
          .isAfterOrEqualTo(launch.at().plus(r.spec().find(TaskKeys.TIMEOUT).orElseThrow()));
      saw("kill");
      kill(k);
      return false;
    }

    private void launch(TaskRecord r, Decision.Start s) {
      TaskSpec t = r.spec();
      // The property: every edge is met, by the contract, at the moment of the launch.
      for (Dependency e : edges(t)) {
        assertThat(verdict(e, state)).as("%s: %s launched while its edge %s is not met", where(), t.id(), e)
            .isEqualTo(Verdict.MET);
      }
      checkTurnCame(r, "launch");
      assertThat(s.attempt()).as("%s: %s attempt number", where(), t.id())
          .isEqualTo(r.history().attemptCount() + 1)
          .isLessThanOrEqualTo(t.retry().retries() + 1);
      for (Dependency e : edges(t)) {
        if (!e.all()) {
          saw("any-edge met");
        }
        if (!e.success()) {
          saw("failure-edge met");
        }
      }
      if (s.attempt() > 1) {
        saw("retry");
        Instant earliest = lastEnd.get(t.id()).plus(t.retry().delayBefore(s.attempt() - 1));
        assertThat(now).as("%s: %s retried before its delay", where(), t.id()).isAfterOrEqualTo(earliest);
      }
      launches++;
      state.apply(t.id(), new TaskEvent.Launched(now, s.attempt(), s.placement(), launches, false));
      int r100 = rnd.nextInt(100);
      if (r100 < 5) {
        saw("start failed");
        TaskEvent.Ended e = Retries.retryIfAllowed(r, Endings.startFailed(now, "no such program"));
        state.apply(t.id(), e);
        lastEnd.put(t.id(), now);
        return;
      }
      int code = r100 < 65 ? 0 : r100 < 90 ? 1 : 137;
      exits.put(t.id(), new Exit(now.plusMillis(100 + rnd.nextInt(10_000)), s.attempt(), code));
    }

    /** The engine: terminate once; the process exits a little later (or sooner on its own). */
    private void kill(Decision.Kill k) {
      if (killing.putIfAbsent(k.task(), k) != null) {
        return;
      }
      Exit e = exits.get(k.task());
      Instant dies = now.plusMillis(rnd.nextInt(300));
      if (e != null && dies.isBefore(e.at())) {
        exits.put(k.task(), new Exit(dies, e.attempt(), 143));
      }
    }

    private void deliverExitsDueNow() {
      List<TaskId> due = exits.entrySet().stream().filter(e -> !e.getValue().at().isAfter(now))
          .map(Map.Entry::getKey).toList();
      for (TaskId id : due) {
        Exit e = exits.remove(id);
        TaskRecord r = state.task(id);
        assertThat(r.history().currentLaunch()).as("%s: exit of %s", where(), id).isPresent();
        assertThat(r.history().currentLaunch().get().attempt()).isEqualTo(e.attempt());
        state.apply(id, Retries.ending(r, now, e.code(), Optional.ofNullable(killing.remove(id))));
        lastEnd.put(id, now);
      }
    }

    private void cancelRandomTask() {
      List<TaskRecord> open = state.tasks().stream().filter(r -> !r.state().isTerminal()).toList();
      if (open.isEmpty()) {
        return;
      }
      TaskRecord r = open.get(rnd.nextInt(open.size()));
      if (r.state().hasProcess()) {
        kill(new Decision.Kill(r.spec().id(), Outcome.CANCELLED, USER_CANCEL));
      } else {
        state.apply(r.spec().id(), new TaskEvent.Settled(now, TaskState.CANCELLED, USER_CANCEL));
      }
    }

    private void cancelRun() {
      saw("run cancelled");
      runCancelled = true;
      for (TaskId id : List.copyOf(state.running().keySet())) {
        kill(new Decision.Kill(id, Outcome.CANCELLED, RUN_CANCEL));
      }
    }

    private void settleCancelled() {
      for (TaskRecord r : state.tasks()) {
        if (!r.state().isTerminal() && !r.state().hasProcess()) {
          state.apply(r.spec().id(), new TaskEvent.Settled(now, TaskState.CANCELLED, RUN_CANCEL));
        }
      }
    }

    private boolean turnCame(TaskRecord r) {
      return spec.groupsInParallel() || r.groupIndex() <= state.activeGroup();
    }

    private void checkTurnCame(TaskRecord r, String what) {
      assertThat(turnCame(r)).as("%s: %s of %s before its group's turn", where(), what, r.spec().id()).isTrue();
      if (!spec.groupsInParallel()) {
        for (TaskRecord other : state.tasks()) {
          if (other.groupIndex() < r.groupIndex()) {
            assertThat(other.state().isTerminal())
                .as("%s: %s of %s while %s of an earlier group is %s", where(), what, r.spec().id(),
                    other.spec().id(), other.state())
                .isTrue();
          }
        }
      }
    }

    private void checkSettle(TaskRecord r, Decision.Settle s) {
      TaskSpec t = r.spec();
      assertThat(s.reason()).as("%s: settle reason of %s", where(), t.id()).isNotBlank();
      checkTurnCame(r, "settle");
      if (s.state() == TaskState.UNREACHABLE || s.state() == TaskState.CANCELLED) {
        assertThat(r.state()).as("%s: %s settled %s", where(), t.id(), s.state()).isEqualTo(TaskState.QUEUED);
        List<Dependency> impossible = edges(t).stream().filter(e -> verdict(e, state) == Verdict.IMPOSSIBLE).toList();
        assertThat(impossible).as("%s: %s settled %s with no impossible edge", where(), t.id(), s.state()).isNotEmpty();
        // the reason names the cause: a parent that ended without satisfying the edge
        List<TaskId> blockers = new ArrayList<>();
        for (Dependency e : impossible) {
          for (TaskId p : e.tasks()) {
            TaskState ps = state.task(p).state();
            if (ps.isTerminal() && !satisfies(e, ps)) {
              blockers.add(p);
            }
          }
        }
        assertThat(blockers.stream().anyMatch(p -> s.reason().matches(".*\\b" + p.value() + "\\b.*")))
            .as("%s: reason '%s' of %s names one of %s", where(), s.reason(), t.id(), blockers).isTrue();
        // CANCELLED only when a cancelled parent is among the causes; UNREACHABLE only when another cause is
        boolean cancelledCause = blockers.stream().anyMatch(p -> state.task(p).state() == TaskState.CANCELLED);
        boolean otherCause = blockers.stream().anyMatch(p -> state.task(p).state() != TaskState.CANCELLED);
        assertThat(s.state() == TaskState.CANCELLED ? cancelledCause : otherCause)
            .as("%s: %s settled %s (%s) with edges %s, blockers %s", where(), t.id(), s.state(), s.reason(),
                describe(edges(t)), describe(blockers))
            .isTrue();
      } else if (s.state() == TaskState.TIMED_OUT) {
        Duration limit = t.find(TaskKeys.QUEUE_TIMEOUT).orElseThrow();
        if (r.state() == TaskState.QUEUED) {
          Instant since = spec.groupsInParallel() ? T0 : state.pendingSince(r).orElseThrow();
          assertThat(now).as("%s: %s timed out in the queue early", where(), t.id()).isAfterOrEqualTo(since.plus(limit));
        } else {
          assertThat(r.state()).isEqualTo(TaskState.READY);
          List<TaskEvent> ev = r.history().events();
          Instant since = ev.get(ev.size() - 1).at();
          if (ev.get(ev.size() - 1) instanceof TaskEvent.Ended) {
            since = since.plus(t.retry().delayBefore(r.history().attemptCount()));
          }
          assertThat(now).as("%s: %s timed out waiting for resources early", where(), t.id())
              .isAfterOrEqualTo(since.plus(limit));
        }
      } else {
        fail("%s: unexpected settle %s", where(), s);
      }
    }

    private String describe(List<?> things) {
      List<String> out = new ArrayList<>();
      for (Object o : things) {
        if (o instanceof TaskId id) {
          out.add(id + "=" + state.task(id).state());
        } else if (o instanceof Dependency d) {
          out.add((d.all() ? "all" : "any") + (d.success() ? "+ok" : "") + (d.failure() ? "+failed" : "")
              + describe(d.tasks()));
        }
      }
      return out.toString();
    }

    /** After a drain, nothing whose turn came is left queued with edges that are met or impossible. */
    private void checkQuiet() {
      for (TaskRecord r : state.queued()) {
        if (!turnCame(r)) {
          continue;
        }
        for (Dependency e : edges(r.spec())) {
          assertThat(verdict(e, state)).as("%s: %s left queued after the drain", where(), r.spec().id())
              .isNotEqualTo(Verdict.IMPOSSIBLE);
        }
        assertThat(edges(r.spec()).stream().allMatch(e -> verdict(e, state) == Verdict.MET))
            .as("%s: %s has every edge met but was not released", where(), r.spec().id()).isFalse();
      }
    }

    private void checkFinalState() {
      for (TaskRecord r : state.tasks()) {
        TaskSpec t = r.spec();
        String who = "seed " + seed + ": " + t.id();
        List<Attempt> attempts = r.history().attempts();
        assertThat(r.state().isTerminal()).as(who).isTrue();
        saw(r.state().name());
        assertThat(attempts.size()).as("%s attempts", who).isLessThanOrEqualTo(t.retry().retries() + 1);
        assertThat(attempts).as("%s all attempts ended", who).allMatch(a -> a.end().isPresent());
        switch (r.state()) {
          case SUCCEEDED:
            assertThat(attempts.get(attempts.size() - 1).end().get().outcome()).as(who).isEqualTo(Outcome.SUCCEEDED);
            break;
          case UNREACHABLE:
            assertThat(attempts).as("%s unreachable tasks never ran", who).isEmpty();
            assertThat(r.history().finalReason()).as(who).get().asString().isNotBlank();
            break;
          case CANCELLED:
            assertThat(r.history().finalReason()).as(who).get().asString().isNotBlank();
            break;
          default:
            break;
        }
        // retries were used only while the budget lasted
        long failures = attempts.stream()
            .filter(a -> Retries.ORDINARY_FAILURES.contains(a.end().get().outcome())).count();
        assertThat(failures).as("%s ordinary failures", who).isLessThanOrEqualTo(t.retry().retries() + 1);
      }
    }
  }
}
