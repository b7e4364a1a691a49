package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What engine pools hold in the host ledger: each pool holds <em>slots</em>, reservations a call
 * took there once, and a call that fits a free slot of its pool on its device takes it without a
 * ledger step. A call ending frees its slot for the next call of its pool; slots still free at the end
 * of a decision pass go back to the ledger, so between passes a pool holds what its calls in flight
 * reserve, and other runs see it. A slot is reused only while it is younger than {@code renewAfter}:
 * then it goes back when its call ends, so the pool's next call claims anew, and a task of another
 * run first in the host-wide order gets its turn at least that often. Loop thread only.
 */
final class HostSharePools {

  /** One reservation a pool holds in the ledger, under {@code name}, and the call using it, if any. */
  static final class Slot {
    private final String name;
    private final String pool;
    private final Placement size;
    private final Instant takenAt;
    private TaskId call;

    private Slot(String name, String pool, Placement size, Instant takenAt, TaskId call) {
      this.name = name;
      this.pool = pool;
      this.size = size;
      this.takenAt = takenAt;
      this.call = call;
    }

    /** The slot's name in the ledger, e.g. {@code pool:fast/3}, never a task's id. */
    String name() {
      return name;
    }

    /** The call using the slot, or empty while it is free. */
    Optional<TaskId> call() {
      return Optional.ofNullable(call);
    }

    private boolean fits(String pool, Placement p) {
      return call == null && this.pool.equals(pool) && size.device().equals(p.device())
          && size.memoryBytes() >= p.memoryBytes() && size.milliCpus() >= p.milliCpus()
          && size.gpuMemoryBytes() >= p.gpuMemoryBytes();
    }
  }

  private final Duration renewAfter;
  private final Map<String, Slot> slots = new LinkedHashMap<>(); // in the order they were named
  private long numbered;

  /** Pools whose slots are reused for {@code renewAfter} after they were taken. */
  HostSharePools(Duration renewAfter) {
    this.renewAfter = renewAfter;
  }

  /**
   * The pool a task's attempts run in when their reservations can be slots: a call task of a pool
   * on one device or none. A call asking for whole devices claims its own, as a process does.
   */
  static Optional<String> poolOf(TaskSpec spec, Placement placement) {
    PoolSpec pool = spec.get(TaskKeys.POOL);
    if (pool == null || spec.gpu().wholeDevices() > 0 || placement.gpuIndices().size() > 1
        || Placement.CLUSTER.equals(placement.device())) {
      return Optional.empty();
    }
    return Optional.of(pool.name());
  }

  /** Gives {@code call} a free slot of {@code pool} that fits its placement and is not due back, if there is one. */
  boolean seat(TaskId call, String pool, Placement placement, Instant now) {
    for (Slot slot : slots.values()) {
      if (slot.fits(pool, placement) && !due(slot, now)) {
        slot.call = call;
        return true;
      }
    }
    return false;
  }

  /** The name a new slot of {@code pool} is to be claimed under. */
  String nextName(String pool) {
    return "pool:" + pool + "/" + (++numbered);
  }

  /** The ledger gave {@code call} a new slot, claimed under {@code name}. */
  void taken(String name, TaskId call, String pool, Placement placement, Instant now) {
    slots.put(name, new Slot(name, pool, placement, now, call));
  }

  /** Frees the slots of calls that no longer hold anything. */
  void vacate(Predicate<TaskId> holds) {
    for (Slot slot : slots.values()) {
      if (slot.call != null && !holds.test(slot.call)) {
        slot.call = null;
      }
    }
  }

  /** Takes out the free slots due back to the ledger ({@code all}: every free one), for a release step. */
  List<String> giveBack(boolean all, Instant now) {
    List<String> names = new ArrayList<>();
    slots.values().removeIf(slot -> {
      boolean back = slot.call == null && (all || due(slot, now));
      if (back) {
        names.add(slot.name);
      }
      return back;
    });
    return names;
  }

  /** The slots held now, in the order they were named. */
  List<Slot> held() {
    return List.copyOf(slots.values());
  }

  /** Forgets every slot (the run left the ledger, which released them). */
  void clear() {
    slots.clear();
  }

  private boolean due(Slot slot, Instant now) {
    return !now.isBefore(slot.takenAt.plus(renewAfter));
  }
}
