package dev.berth.core.resources;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskEvent;
import dev.berth.core.model.Resources;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The host's resources for one decision pass: what the probe saw, minus what Berth has promised
 * to tasks whose real usage the probe cannot see yet. Two admissions in one pass never see the same
 * free memory twice, because each admission reserves before the next is checked.
 *
 * <p>A running task's outstanding reservation is its reserved memory minus the resident memory the
 * probe measured for it (never below zero); a task launched after the reading counts in full.
 */
public final class HostBudget {

  /** The device name of host-level refusals. */
  public static final String HOST = "host";

  private final SchedulerConfig config;
  private final long totalMemory;
  private final long floorMemory;
  private long freeMemory;
  private long reservedMemory;
  private final long coreCapacity;
  private long coresInUse;
  private int processes;
  private final long foreignUtilizationPermille;
  /** Cores of the host other Berth runs leave, in thousandths; unlimited when they hold none. */
  private final long hostCoresLeft;
  private final HeldElsewhere elsewhere;

  private HostBudget(SchedulerConfig config, HostSnapshot snapshot, Map<TaskId, TaskEvent.Launched> running) {
    this.config = config;
    this.totalMemory = snapshot.totalMemoryBytes();
    this.floorMemory = Math.max(floorByLimit(), config.remainMemoryBytes());
    int cores = config.cores() > 0 ? config.cores() : snapshot.logicalCpus();
    this.coreCapacity = cores * 1000L;
    long outstanding = 0;
    long berthMilliCpusAtReading = 0;
    for (Map.Entry<TaskId, TaskEvent.Launched> e : running.entrySet()) {
      Placement p = e.getValue().placement();
      boolean visible = !e.getValue().at().isAfter(snapshot.takenAt());
      long measured = visible ? snapshot.taskMemoryBytes().getOrDefault(e.getKey(), 0L) : 0L;
      outstanding += Math.max(0, p.memoryBytes() - measured);
      reservedMemory += p.memoryBytes();
      coresInUse += p.milliCpus();
      if (visible) {
        berthMilliCpusAtReading += p.milliCpus();
      }
      processes++;
    }
    this.elsewhere = snapshot.elsewhere();
    this.freeMemory = snapshot.availableMemoryBytes() - outstanding - elsewhere.memory(HOST);
    this.hostCoresLeft = elsewhere.milliCpus() > 0
        ? snapshot.logicalCpus() * 1000L - elsewhere.milliCpus() : Long.MAX_VALUE;
    if (snapshot.cpuUtilizationKnown()) {
      double berthShare = berthMilliCpusAtReading / (snapshot.logicalCpus() * 1000.0);
      double foreign = Math.max(0, snapshot.cpuUtilization() - berthShare);
      this.foreignUtilizationPermille = Math.round(foreign * 1000);
    } else {
      this.foreignUtilizationPermille = -1;
    }
  }

  /**
   * Builds the budget for one pass.
   *
   * @param running the launch of every task that has a process now
   */
  public static HostBudget of(SchedulerConfig config, HostSnapshot snapshot, Map<TaskId, TaskEvent.Launched> running) {
    return new HostBudget(config, snapshot, running);
  }

  /**
   * A refusal that holds for every task this pass (a host ledger that cannot tell what other runs
   * hold, process cap, CPU utilization), if any.
   */
  public Optional<Refusal> globalRefusal() {
    Optional<Refusal> untold = elsewhere.untoldRefusal();
    if (untold.isPresent()) {
      return untold;
    }
    if (config.maxProcess() > 0 && processes >= config.maxProcess()) {
      return Optional.of(new Refusal(Resource.PROCESSES, HOST, 1, 0, processes, "scheduler.max-process"));
    }
    long limit = Math.round(config.cpuUtilizationLimit() * 1000);
    if (foreignUtilizationPermille >= 0 && foreignUtilizationPermille >= limit && limit < 1000) {
      return Optional.of(new Refusal(
          Resource.CPU_UTILIZATION, HOST, limit, foreignUtilizationPermille, 0, "utilization-limit.cpu"));
    }
    return Optional.empty();
  }

  /**
   * Why this request could never be admitted on this host, even with nothing else running.
   */
  public Optional<Refusal> impossible(Resources request) {
    if (request.milliCpus() > coreCapacity) {
      return Optional.of(new Refusal(
          Resource.CPUS, HOST, request.milliCpus(), coreCapacity, 0, coreRule()));
    }
    long best = totalMemory - floorMemory;
    if (request.memoryBytes() > best) {
      return Optional.of(new Refusal(Resource.MEMORY, HOST, request.memoryBytes(), Math.max(0, best), 0, memoryRule()));
    }
    return Optional.empty();
  }

  /**
   * Reserves the request if it fits now.
   *
   * @return the placement when admitted; the refusals otherwise
   */
  public Admission tryReserve(Resources request) {
    if (request.milliCpus() > 0 && coresInUse + request.milliCpus() > coreCapacity) {
      return Admission.refused(new Refusal(
          Resource.CPUS, HOST, request.milliCpus(), Math.max(0, coreCapacity - coresInUse), coresInUse, coreRule()));
    }
    if (request.milliCpus() > 0 && coresInUse + request.milliCpus() > hostCoresLeft) {
      return Admission.refused(new Refusal(Resource.CPUS, HOST, request.milliCpus(),
          Math.max(0, hostCoresLeft - coresInUse), coresInUse,
          "logical CPUs of the host; " + elsewhere.coreHolders().orElseThrow()));
    }
    long usable = freeMemory - floorMemory;
    if (request.memoryBytes() > usable) {
      String base = freeMemory < request.memoryBytes() ? "available memory" : memoryRule();
      String rule = elsewhere.memoryHolders(HOST, Resource.MEMORY).map(who -> base + "; " + who).orElse(base);
      return Admission.refused(new Refusal(
          Resource.MEMORY, HOST, request.memoryBytes(), Math.max(0, usable), reservedMemory, rule));
    }
    coresInUse += request.milliCpus();
    freeMemory -= request.memoryBytes();
    reservedMemory += request.memoryBytes();
    processes++;
    return Admission.placed(Placement.cpu(request.memoryBytes(), request.milliCpus()));
  }

  /**
   * A refusal for every task that asks for cores, when none is left; empty while cores are free.
   */
  public Optional<Refusal> noCoreLeft() {
    if (coresInUse < Math.min(coreCapacity, hostCoresLeft)) {
      return Optional.empty();
    }
    String rule = coresInUse >= coreCapacity ? coreRule()
        : "logical CPUs of the host; " + elsewhere.coreHolders().orElseThrow();
    return Optional.of(new Refusal(Resource.CPUS, HOST, Refusal.ANY, 0, coresInUse, rule));
  }

  /**
   * The most host memory this configuration lets Berth hand out on a host with this much memory in
   * all: the total minus what the limits keep free. The host ledger holds every run's shares to it.
   */
  public static long capacity(SchedulerConfig config, long totalMemory) {
    long floor = Math.max(MemoryFloor.byLimit(totalMemory, config.memoryUtilizationLimit()), config.remainMemoryBytes());
    return Math.max(0, totalMemory - floor);
  }

  /** The most memory any task could ever be admitted with on this host, in bytes. */
  public long maxMemory() {
    return Math.max(0, totalMemory - floorMemory);
  }

  /** Memory still free for new tasks after reservations and limits, in bytes. */
  public long usableMemory() {
    return Math.max(0, freeMemory - floorMemory);
  }

  private String memoryRule() {
    return floorByLimit() >= config.remainMemoryBytes() ? "utilization-limit.memory" : "remain-limit.memory";
  }

  private long floorByLimit() {
    return MemoryFloor.byLimit(totalMemory, config.memoryUtilizationLimit());
  }

  private String coreRule() {
    return config.cores() > 0 ? "scheduler.cores" : "logical CPUs of the host";
  }

  /** The result of {@link #tryReserve}: a placement, or the refusals. */
  public record Admission(Optional<Placement> placement, List<Refusal> refusals) {
    static Admission placed(Placement p) {
      return new Admission(Optional.of(p), List.of());
    }

    static Admission refused(Refusal r) {
      return new Admission(Optional.empty(), List.of(r));
    }
  }
}
