package dev.berth.runtime.engine;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuDevices;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.DeviceBudget;
import dev.berth.core.resources.HeldElsewhere;
import dev.berth.core.resources.Holding;
import dev.berth.core.resources.HostBudget;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.resources.Refusal;
import dev.berth.core.resources.Resource;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.core.scheduling.Waiting;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Demand;
import dev.berth.spi.SharedReservations.Measured;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.spi.SharedReservationsException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The engine's side of the host ledger: what other runs hold goes into each snapshot the scheduler
 * sees, an attempt takes its reservation before its process starts and releases it when it no
 * longer holds anything, and the tasks that wait say so, keeping their place in the host-wide
 * order. A pool's call takes a slot its pool already holds instead, when one is free (see
 * {@link HostSharePools}). Without a ledger it does nothing. Loop thread only.
 */
final class HostShare {

  /**
   * How many of the run's waiting tasks (the first in its start order) keep a place in the host-wide
   * order: only the head of a queue can be next, and a run of thousands stays one small write.
   */
  private static final int PUBLISHED_WAITING = 16;

  private static final Set<Resource> SHARED = Set.of(Resource.MEMORY, Resource.CPUS, Resource.GPU_MEMORY, Resource.GPUS);

  private final RunState state;
  private final InstantSource clock;
  private final Set<TaskId> holding = new TreeSet<>();
  private final Set<TaskId> ended = new TreeSet<>(); // of holding: released with the next ledger step
  private final Set<TaskId> onDevice = new TreeSet<>(); // of holding: took GPU shares with their last claim
  // Of onDevice: stopped training (a two-stage task out of GPU memory, or done) and still have a
  // process; their GPU shares go back after the pass, unless a claim of the pass replaced them.
  private final Set<TaskId> offDevice = new TreeSet<>();
  private final HostSharePools pools;
  private final List<String> slotsBack = new ArrayList<>(); // pools' slots given back with the next ledger step
  private SharedReservations ledger;
  private List<Demand> published = List.of();
  private HeldElsewhere elsewhere = HeldElsewhere.NONE;
  private String selection;
  private boolean reachable = true; // whether the last take reached the ledger, whatever it answered

  /** Shares nothing until {@link #use} gives it a ledger. */
  HostShare(RunState state, InstantSource clock) {
    this.state = state;
    this.clock = clock;
    this.pools = new HostSharePools(state.spec().config().interval());
  }

  /** Takes part in this ledger (which the run has joined). */
  void use(SharedReservations shared) {
    this.ledger = shared;
  }

  /** Publishes this run's progress and measured usage and reads what the other runs hold. */
  HostSnapshot look(HostSnapshot snapshot) {
    if (ledger == null) {
      return snapshot;
    }
    List<Reservation> others;
    try {
      others = ledger.look(progress(), measured(snapshot), clock.instant());
    } catch (SharedReservationsException e) {
      return snapshot.withElsewhere(elsewhere); // a busy or failing ledger: what was seen last still holds
    }
    Map<String, String> labels = labels(snapshot);
    List<Holding> holdings = new ArrayList<>();
    for (Reservation r : others) {
      String device = labels.get(r.key());
      if (device != null && (r.outstandingBytes() > 0 || r.milliCpus() > 0)) {
        holdings.add(new Holding(r.runName(), r.user(), device, r.outstandingBytes(), r.milliCpus()));
      }
    }
    elsewhere = new HeldElsewhere(holdings, ledger.untold());
    return snapshot.withElsewhere(elsewhere);
  }

  /** A placement whose reservation an attempt is to take before it starts. */
  record Start(TaskRecord task, Placement placement) {}

  /**
   * Takes the placement's reservation in the host ledger before the attempt starts.
   *
   * @return why not, when another run took the resources first or a task of another run comes first
   */
  Optional<Refusal> take(TaskRecord task, Placement placement, HostSnapshot snapshot) {
    return takeAll(List.of(new Start(task, placement)), snapshot).get(0);
  }

  /**
   * Takes the reservations of these starts in order, in one ledger step with the releases
   * {@link #releaseEnded()} noted: a pass that starts many tasks pays for one. A pool's call that
   * fits a free slot of its pool takes that instead; when every start does, there is no ledger step.
   *
   * @return for each start, in order, why not (see {@link #take}), or empty when taken
   */
  List<Optional<Refusal>> takeAll(List<Start> starts, HostSnapshot snapshot) {
    List<Optional<Refusal>> refusals = new ArrayList<>(Collections.nCopies(starts.size(), Optional.<Refusal>empty()));
    if (ledger == null || starts.isEmpty()) {
      return refusals;
    }
    Instant now = clock.instant();
    List<Pending> pending = pending(starts, snapshot, now);
    if (pending.isEmpty()) {
      return refusals;
    }
    slotsBack.addAll(pools.giveBack(false, now));
    List<Optional<String>> why;
    try {
      why = ledger.releaseAndTakeAll(released(), claims(pending), now);
      releasedNoted();
      reachable = true;
    } catch (SharedReservationsException e) {
      why = pending.stream().map(c -> Optional.of("the host ledger cannot be used now: " + e.getMessage())).toList();
      reachable = false;
    }
    for (int j = 0; j < pending.size(); j++) {
      Pending p = pending.get(j);
      Placement placement = starts.get(p.index()).placement();
      if (why.get(j).isPresent()) {
        refusals.set(p.index(), why.get(j).map(line -> refusal(placement, line)));
      } else {
        taken(p, now);
      }
    }
    return refusals;
  }

  /** Whether the last take reached the ledger (a refused claim did; a busy or broken ledger did not). */
  boolean reachable() {
    return reachable;
  }

  /** A start claimed in the ledger under {@code name}: its task's id, or a new slot of {@code pool}. */
  private record Pending(int index, Start start, String name, String pool, Claim claim) {}

  /** The starts that need a ledger step: all but the pools' calls that a free slot of their pool seats. */
  private List<Pending> pending(List<Start> starts, HostSnapshot snapshot, Instant now) {
    List<Pending> pending = new ArrayList<>();
    for (int i = 0; i < starts.size(); i++) {
      Start start = starts.get(i);
      TaskId id = start.task().spec().id();
      Optional<String> pool = HostSharePools.poolOf(start.task().spec(), start.placement());
      if (pool.isPresent() && pools.seat(id, pool.get(), start.placement(), now)) {
        continue; // its pool holds it already: no ledger step
      }
      String name = pool.map(pools::nextName).orElse(id.value());
      pending.add(new Pending(i, start, name, pool.orElse(null), claim(start, snapshot, name)));
    }
    return pending;
  }

  private static List<Claim> claims(List<Pending> pending) {
    return pending.stream().map(Pending::claim).toList();
  }

  /** Notes what a start's claim took: a slot of its pool, or its task's own hold. */
  private void taken(Pending p, Instant now) {
    Start start = p.start();
    TaskId id = start.task().spec().id();
    if (p.pool() != null) {
      pools.taken(p.name(), id, p.pool(), start.placement(), now);
      return;
    }
    holding.add(id);
    offDevice.remove(id); // the claim replaced what the task held on devices
    if (start.placement().gpuIndices().isEmpty()) {
      onDevice.remove(id);
    } else {
      onDevice.add(id);
    }
  }

  private List<String> released() {
    List<String> names = new ArrayList<>(names(ended));
    names.addAll(slotsBack);
    return names;
  }

  private void releasedNoted() {
    holding.removeAll(ended);
    onDevice.removeAll(ended);
    offDevice.removeAll(ended);
    ended.clear();
    slotsBack.clear();
  }

  private Claim claim(Start start, HostSnapshot snapshot, String name) {
    Placement placement = start.placement();
    List<Share> shares = new ArrayList<>();
    if (placement.memoryBytes() > 0) {
      shares.add(new Share(SharedReservations.HOST, HostBudget.HOST, placement.memoryBytes(), hostCapacity(snapshot)));
    }
    List<Integer> gpus = placement.gpuIndices();
    for (int index : gpus) {
      // A whole device is all of it, floor included, and only while no other run holds a share of it.
      deviceOf(snapshot, index).ifPresent(d -> shares.add(new Share(key(d), d.id(), placement.gpuMemoryBytes() / gpus.size(),
          start.task().spec().gpu().wholeDevices() > 0 ? d.totalMemoryBytes() : capacity(d))));
    }
    // scheduler.cores may promise more cores than the host has; the run's own cap is core's to keep.
    long cpuLimit = Math.max(snapshot.logicalCpus(), state.spec().config().cores()) * 1000L;
    TaskSpec spec = start.task().spec();
    return new Claim(name, spec.priority(), placement.milliCpus(), cpuLimit, shares);
  }

  /** The refusal of a claim for {@code placement}, with the ledger's line, which says what is free. */
  private static Refusal refusal(Placement placement, String line) {
    List<Integer> gpus = placement.gpuIndices();
    Resource resource = gpus.isEmpty() ? (placement.memoryBytes() > 0 ? Resource.MEMORY : Resource.CPUS)
        : Resource.GPU_MEMORY;
    String device = gpus.isEmpty() ? HostBudget.HOST : placement.device();
    long asked = gpus.isEmpty() ? (resource == Resource.MEMORY ? placement.memoryBytes() : placement.milliCpus())
        : placement.gpuMemoryBytes();
    return new Refusal(resource, device, asked, -1, 0, line);
  }

  /**
   * Takes what the attempts a resumed run adopted hold, in one ledger step that also gives back what
   * the run took over from its killed predecessor for tasks that ended meanwhile. Their processes run
   * already, so the ledger never refuses them: another run that took the resources meanwhile sees
   * the device full until they end.
   */
  void adoptRunning(HostSnapshot snapshot) {
    if (ledger == null) {
      return;
    }
    List<Start> adopted = new ArrayList<>();
    state.occupancy().forEach((id, occupancy) -> adopted.add(new Start(state.task(id), occupancy.placement())));
    Instant now = clock.instant();
    List<Pending> pending = pending(adopted, snapshot, now);
    try {
      ledger.adopt(claims(pending), now);
    } catch (SharedReservationsException e) {
      // The run keeps what it took over when it joined, the safe side; its adopted tasks count as
      // holding, so that their ends give it back.
    }
    pending.forEach(p -> taken(p, now));
  }

  /**
   * Notes what tasks that no longer hold anything took, for the ledger to release with this pass's
   * first take or, when the pass takes nothing, at its end ({@link #releaseNoted()}): either way in
   * the same pass, in one ledger step. A pool's call frees its slot for the pass's next call of its pool.
   */
  void releaseEnded() {
    if (ledger == null) {
      return;
    }
    pools.vacate(state.occupancy()::containsKey);
    for (TaskId id : holding) {
      var occupancy = state.occupancy().get(id);
      if (occupancy == null) {
        ended.add(id);
      } else if (occupancy.placement().gpuIndices().isEmpty() && onDevice.contains(id)) {
        offDevice.add(id);
      }
    }
  }

  private static List<String> names(Set<TaskId> tasks) {
    return tasks.stream().map(TaskId::value).toList();
  }

  /** Releases what {@link #releaseEnded()} noted and no take released, and the pools' slots still free. */
  void releaseNoted() {
    if (ledger == null) {
      return;
    }
    slotsBack.addAll(pools.giveBack(true, clock.instant()));
    if (!offDevice.isEmpty()) {
      try {
        ledger.releaseDevices(names(offDevice), clock.instant());
        onDevice.removeAll(offDevice);
        offDevice.clear();
      } catch (SharedReservationsException e) {
        // tried again after the next event; holding more than needed is the safe side
      }
    }
    if (ended.isEmpty() && slotsBack.isEmpty()) {
      return;
    }
    try {
      ledger.releaseAll(released(), clock.instant());
      releasedNoted();
    } catch (SharedReservationsException e) {
      // tried again after the next event; holding more than needed is the safe side
    }
  }

  /** Says which tasks wait for resources the host shares, so each keeps its place in the host-wide order. */
  void waiting(List<Waiting> waiting, HostSnapshot snapshot) {
    if (ledger == null) {
      return;
    }
    List<Demand> demands = new ArrayList<>();
    for (Waiting w : waiting) {
      if (demands.size() == PUBLISHED_WAITING) {
        break;
      }
      if (w.refusals().isEmpty() || !w.refusals().stream().allMatch(r -> SHARED.contains(r.resource()))) {
        continue;
      }
      TaskRecord r = state.task(w.task());
      List<Share> devices = new ArrayList<>();
      devices.add(new Share(SharedReservations.HOST, HostBudget.HOST, 0, hostCapacity(snapshot)));
      if (r.spec().gpu().wantsGpu()) {
        snapshot.gpus().devices().stream().filter(d -> r.spec().gpu().allows(d.index()))
            .forEach(d -> devices.add(new Share(key(d), d.id(), 0, capacity(d))));
      }
      int gpus = r.spec().gpu().wantsGpu() ? Math.max(1, r.spec().gpu().wholeDevices()) : 0;
      demands.add(new Demand(w.task().value(), r.spec().priority(), r.spec().resources().milliCpus(),
          r.spec().resources().memoryBytes(), r.spec().gpu().memoryBytes(), gpus, devices));
    }
    if (!demands.equals(published)) {
      try {
        ledger.waiting(demands, clock.instant());
        published = demands;
      } catch (SharedReservationsException e) {
        // said again after the next pass
      }
    }
  }

  /** Marks the run ended in the ledger with its final counts, releasing everything it held. */
  void leave(String status) {
    if (ledger == null) {
      return;
    }
    try {
      ledger.look(progress(), List.of(), clock.instant()); // berth ps -a shows how far it got
      ledger.leave(status, clock.instant());
      holding.clear();
      onDevice.clear();
      offDevice.clear();
      pools.clear();
      slotsBack.clear();
    } catch (SharedReservationsException e) {
      // the run's process ends soon, and whoever looks next reclaims what it held
    }
  }

  /** What other runs held at the last look. */
  HeldElsewhere elsewhere() {
    return elsewhere;
  }

  /** A device as every run on the host names it ({@link GpuDevices#sharedKey}). */
  private String key(GpuDevice d) {
    if (selection == null) {
      selection = DeviceSelection.parse(state.spec().gpus()).toString(); // sim:24 GiB and sim:24GiB are one set
    }
    return GpuDevices.sharedKey(selection, d);
  }

  private Map<String, String> labels(HostSnapshot snapshot) {
    Map<String, String> labels = new TreeMap<>();
    labels.put(SharedReservations.HOST, HostBudget.HOST);
    snapshot.gpus().devices().forEach(d -> labels.put(key(d), d.id()));
    return labels;
  }

  /** What this run's limits let Berth hand out on the device in all, which its claims are held to. */
  private long capacity(GpuDevice d) {
    return DeviceBudget.capacity(state.spec().config(), d);
  }

  private long hostCapacity(HostSnapshot snapshot) {
    return HostBudget.capacity(state.spec().config(), snapshot.totalMemoryBytes());
  }

  private static Optional<GpuDevice> deviceOf(HostSnapshot snapshot, int index) {
    return snapshot.gpus().devices().stream().filter(d -> d.index() == index).findFirst();
  }

  private Progress progress() {
    int running = state.running().size();
    int waiting = state.ready().size();
    int done = (int) state.tasks().stream().filter(t -> t.state().isTerminal()).count();
    String what = running == 0 && waiting > 0 ? "waiting" : "running";
    return new Progress(what, running, waiting, done, state.tasks().size());
  }

  private List<Measured> measured(HostSnapshot snapshot) {
    List<Measured> measured = new ArrayList<>();
    for (TaskId id : holding) {
      measured(snapshot, id.value(), id, measured);
    }
    for (HostSharePools.Slot slot : pools.held()) {
      slot.call().ifPresent(call -> measured(snapshot, slot.name(), call, measured));
    }
    return measured;
  }

  /** Adds what task {@code id} was measured to use to what the ledger's entry {@code name} holds. */
  private void measured(HostSnapshot snapshot, String name, TaskId id, List<Measured> measured) {
    Long host = snapshot.taskMemoryBytes().get(id);
    if (host != null) {
      measured.add(new Measured(name, SharedReservations.HOST, host));
    }
    Long gpu = snapshot.gpus().taskMemoryBytes().get(id);
    var occupancy = state.occupancy().get(id);
    if (gpu != null && occupancy != null && !occupancy.placement().gpuIndices().isEmpty()) {
      List<Integer> indices = occupancy.placement().gpuIndices();
      for (int index : indices) {
        deviceOf(snapshot, index).ifPresent(d -> measured.add(new Measured(name, key(d), gpu / indices.size())));
      }
    }
  }
}
