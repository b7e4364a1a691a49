package dev.berth.host;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The ledger's rows in memory: for a run that wants to be alone on its host ({@code --host-ledger
 * off}), and for tests, where several ledgers may share one store as runs share the host's file.
 */
final class MemoryStore implements LedgerStore {

  private final Map<String, RunRow> runs = new TreeMap<>();
  private final List<HoldRow> holds = new ArrayList<>();
  private final List<WaitRow> waits = new ArrayList<>();
  private final List<Usage> usage = new ArrayList<>();

  private record Usage(String user, Instant at, double amount) {}

  @Override
  public synchronized <T> T transaction(Function<Tables, T> work) {
    return work.apply(new MemoryTables());
  }

  @Override
  public String where() {
    return "this run only (host ledger off)";
  }

  @Override
  public void close() {}

  private boolean owns(String run, long uid) {
    RunRow r = runs.get(run);
    return r != null && r.uid() == uid;
  }

  private final class MemoryTables implements Tables {
    @Override
    public List<RunRow> runs() {
      return List.copyOf(runs.values());
    }

    @Override
    public List<HoldRow> holds() {
      return List.copyOf(holds);
    }

    @Override
    public List<WaitRow> waits() {
      return List.copyOf(waits);
    }

    @Override
    public Map<String, Double> usageSince(Instant since) {
      Map<String, Double> byUser = new TreeMap<>();
      usage.stream().filter(u -> !u.at().isBefore(since)).forEach(u -> byUser.merge(u.user(), u.amount(), Double::sum));
      return byUser;
    }

    @Override
    public boolean putRun(RunRow run, long uid) {
      RunRow old = runs.get(run.id());
      if (old != null && old.live() && old.uid() != uid) {
        return false;
      }
      holds.removeIf(h -> h.run().equals(run.id()));
      waits.removeIf(w -> w.run().equals(run.id()));
      runs.put(run.id(), run);
      return true;
    }

    @Override
    public void progress(String run, long uid, String state, int running, int waiting, int done, int total,
        Instant at) {
      RunRow r = runs.get(run);
      if (owns(run, uid) && r.live()) {
        runs.put(run, new RunRow(r.id(), r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
            state, running, waiting, done, total, r.startedAt(), at, null, r.tasksSince()));
      }
    }

    @Override
    public void end(String run, long uid, String state, Instant at) {
      if (owns(run, uid)) {
        ended(run, state, at);
      }
    }

    @Override
    public void reclaim(String run, Instant at) {
      ended(run, "lost", at);
    }

    @Override
    public void reclaimTask(String run, String task) {
      holds.removeIf(h -> h.run().equals(run) && h.task().equals(task));
    }

    @Override
    public void takeOver(String dead, String run, Instant at) {
      holds.replaceAll(h -> h.run().equals(dead)
          ? new HoldRow(run, h.task(), h.key(), h.label(), h.bytes(), h.measured(), h.milliCpus(), h.since()) : h);
      ended(dead, RESUMED, at);
    }

    @Override
    public void orphan(String run, String state, Instant at) {
      waits.removeIf(w -> w.run().equals(run));
      RunRow r = runs.get(run);
      runs.put(run, new RunRow(r.id(), r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
          state, r.running(), 0, r.done(), r.total(), r.startedAt(), at, null, r.tasksSince()));
    }

    private void ended(String run, String state, Instant at) {
      holds.removeIf(h -> h.run().equals(run));
      waits.removeIf(w -> w.run().equals(run));
      RunRow r = runs.get(run);
      runs.put(run, new RunRow(r.id(), r.host(), r.name(), r.workdir(), r.uid(), r.user(), r.pid(), r.pidStart(),
          state, 0, 0, r.done(), r.total(), r.startedAt(), at, at, r.tasksSince()));
    }

    @Override
    public void addHold(HoldRow hold, long uid) {
      if (owns(hold.run(), uid)) {
        holds.removeIf(h -> h.run().equals(hold.run()) && h.task().equals(hold.task()) && h.key().equals(hold.key()));
        holds.add(hold);
      }
    }

    @Override
    public boolean removeHolds(String run, String task, long uid) {
      return owns(run, uid) && holds.removeIf(h -> h.run().equals(run) && h.task().equals(task));
    }

    @Override
    public void removeHold(String run, String task, String key, long uid) {
      if (owns(run, uid)) {
        holds.removeIf(h -> h.run().equals(run) && h.task().equals(task) && h.key().equals(key));
      }
    }

    @Override
    public void removeWait(String run, String task, long uid) {
      if (owns(run, uid)) {
        waits.removeIf(w -> w.run().equals(run) && w.task().equals(task));
      }
    }

    @Override
    public void measured(String run, String task, String key, long bytes, long uid) {
      if (!owns(run, uid)) {
        return;
      }
      holds.replaceAll(h -> h.run().equals(run) && h.task().equals(task) && h.key().equals(key)
          ? new HoldRow(h.run(), h.task(), h.key(), h.label(), h.bytes(), bytes, h.milliCpus(), h.since()) : h);
    }

    @Override
    public void replaceWaits(String run, List<WaitRow> rows, long uid) {
      if (owns(run, uid)) {
        waits.removeIf(w -> w.run().equals(run));
        waits.addAll(rows);
      }
    }

    @Override
    public boolean carry(RunRow run, List<HoldRow> holds, List<WaitRow> waits) {
      if (runs.containsKey(run.id())) {
        return false;
      }
      runs.put(run.id(), run);
      MemoryStore.this.holds.addAll(holds);
      MemoryStore.this.waits.addAll(waits);
      return true;
    }

    /** Rows in memory are never removed under their runs. */
    @Override
    public Optional<Instant> remade(Instant now) {
      return Optional.empty();
    }

    @Override
    public void remadeOver() {}

    @Override
    public void remadeSince(Instant at) {}

    @Override
    public void addUsage(String user, Instant at, double amount) {
      usage.add(new Usage(user, at, amount));
    }

    @Override
    public void forgetBefore(Instant before) {
      runs.values().removeIf(r -> !r.live() && r.endedAt().isBefore(before));
      usage.removeIf(u -> u.at().isBefore(before));
    }
  }
}
