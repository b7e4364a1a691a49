package dev.berth.core.resources;

import dev.berth.core.gpu.DeviceState;
import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.PlacementPolicies;
import dev.berth.core.gpu.PlacementPolicy;
import dev.berth.core.gpu.PlacementRequest;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The GPUs for one decision pass: what the probe saw on each device minus what Berth promised to
 * tasks whose usage the probe cannot see yet, with fedflow's limits per device
 * ({@code utilization-limit.cuda-memory}, {@code remain-limit.cuda-memory}), the per-device task
 * cap and whole-device exclusivity. Placement is planned first ({@link #plan}, side-effect free)
 * and committed only when the host admits the task too ({@link #commit}), so one pass never hands
 * out the same free memory twice.
 */
public final class DeviceBudget {

  private final SchedulerConfig config;
  private final Map<Integer, Slot> slots = new TreeMap<>();
  private final Instant now;
  private long sequence;

  private DeviceBudget(SchedulerConfig config, HostSnapshot snapshot, RunOccupancy state, Instant now) {
    this.config = config;
    this.now = now;
    this.sequence = state.gpuPlacements();
    GpuReading reading = snapshot.gpus();
    for (GpuDevice d : reading.devices()) {
      Slot slot = new Slot(d, floor(d), state.lastPlacedAt().get(d.index()), reading.stableSince().get(d.index()));
      slot.free -= snapshot.elsewhere().memory(d.id());
      slot.elsewhere = snapshot.elsewhere().memoryHolders(d.id(), Resource.GPU_MEMORY);
      slots.put(d.index(), slot);
    }
    for (Map.Entry<TaskId, Occupancy> e : state.occupancy().entrySet()) {
      Placement p = e.getValue().placement();
      List<Integer> indices = p.gpuIndices();
      if (indices.isEmpty()) {
        continue;
      }
      boolean visible = !e.getValue().since().isAfter(snapshot.takenAt());
      long measured = visible ? reading.taskMemoryBytes().getOrDefault(e.getKey(), 0L) : 0L;
      boolean exclusive = state.wantsWholeDevices(e.getKey());
      long perDevice = p.gpuMemoryBytes() / indices.size();
      long outstanding = Math.max(0, perDevice - measured / indices.size());
      for (int i : indices) {
        Slot s = slots.get(i);
        if (s != null) {
          s.free -= outstanding;
          s.reserved += perDevice;
          s.tasks++;
          s.exclusive |= exclusive;
        }
      }
    }
  }

  /** Builds the budget for one pass. */
  public static DeviceBudget of(SchedulerConfig config, HostSnapshot snapshot, RunOccupancy state, Instant now) {
    return new DeviceBudget(config, snapshot, state, now);
  }

  /**
   * Plans where a task goes, without reserving anything.
   *
   * @param blacklist devices where the task failed and that a retry avoids while enough others are
   *     left, the one whose last failure is oldest first (see {@link #usable})
   * @param followDevice the device the task must share with the tasks it follows, if any
   */
  public Plan plan(GpuRequest request, List<Integer> blacklist, Optional<Integer> followDevice) {
    return plan(request, blacklist, followDevice, 0);
  }

  /**
   * Plans where a task goes, without reserving anything, keeping room where the placement policy
   * can for the largest GPU memory another task waits for.
   *
   * @param keepRoomBytes the largest GPU memory another task of the run waits for (0: none)
   * @see #plan(GpuRequest, List, Optional)
   */
  public Plan plan(GpuRequest request, List<Integer> blacklist, Optional<Integer> followDevice, long keepRoomBytes) {
    if (!request.wantsGpu()) {
      return Plan.cpu();
    }
    GpuRequest effective = followDevice.map(request::pinnedTo).orElse(request);
    List<Slot> allowed = slots.values().stream().filter(s -> effective.allows(s.device.index())).toList();
    if (slots.isEmpty()) {
      return Plan.never("needs a GPU, but no GPU is available to Berth (use --gpus to choose devices)");
    }
    if (allowed.isEmpty()) {
      return Plan.never("needs " + describeAllowed(effective) + ", but the devices are "
          + String.join(", ", slots.values().stream().map(s -> s.device.id()).toList()));
    }
    List<Slot> usable = usable(allowed, blacklist, Math.max(1, request.wholeDevices()));
    if (request.wholeDevices() > usable.size()) {
      return Plan.never("needs " + request.wholeDevices() + " whole GPUs, but only " + usable.size()
          + " may be used");
    }
    if (request.memoryBytes() > 0) {
      Slot biggest = usable.stream().max(Comparator.comparingLong(Slot::capacity)).orElseThrow();
      if (request.memoryBytes() > biggest.capacity()) {
        return Plan.never("can never be placed: " + new Refusal(Resource.GPU_MEMORY, biggest.device.id(),
            request.memoryBytes(), biggest.capacity(), 0, limitRule(biggest)).describe());
      }
    }
    List<Refusal> refusals = new ArrayList<>();
    List<DeviceState> fitting = new ArrayList<>();
    for (Slot s : usable) {
      Optional<Refusal> r = refusal(s, request);
      if (r.isPresent()) {
        refusals.add(r.get());
      } else {
        fitting.add(new DeviceState(s.device.index(), s.device.totalMemoryBytes(), Math.max(0, s.free), s.reserved,
            s.tasks, s.lastPlacedAt, s.stableSince));
      }
    }
    int needed = Math.max(1, request.wholeDevices());
    if (fitting.size() < needed) {
      return Plan.refused(refusals);
    }
    PlacementPolicy policy = PlacementPolicies.byName(
        request.placement().orElse(config.placement()), config.putInterval(), config.availableInterval());
    PlacementRequest placement = new PlacementRequest(request.memoryBytes(), now, config.seed(), sequence,
        keepRoomBytes);
    List<DeviceState> ordered = policy.order(fitting, placement);
    if (ordered.size() < needed) {
      refusals.add(new Refusal(Resource.GPUS, "any", needed, ordered.size(), 0,
          "placement " + policy.name() + " (put-interval / available-interval)"));
      return Plan.refused(refusals);
    }
    List<Integer> chosen = ordered.subList(0, needed).stream().map(DeviceState::index).sorted().toList();
    long perDevice = request.wholeDevices() > 0 ? 0 : request.memoryBytes();
    return Plan.on(chosen, perDevice, request.wholeDevices() > 0);
  }

  /**
   * The allowed devices a retry may use: those that did not fail the task, and while fewer than it
   * needs are left, those that failed it longest ago. ipyparallel gives up instead, which would cap
   * a task's {@code retries} at the number of devices it may use: one retry on a one-GPU machine.
   */
  private static List<Slot> usable(List<Slot> allowed, List<Integer> blacklist, int needed) {
    if (blacklist.isEmpty()) {
      return allowed;
    }
    List<Slot> usable = new ArrayList<>(allowed.stream().filter(s -> !blacklist.contains(s.device.index())).toList());
    for (int failed : blacklist) {
      if (usable.size() >= needed) {
        break;
      }
      allowed.stream().filter(s -> s.device.index() == failed).forEach(usable::add);
    }
    usable.sort(Comparator.comparingInt(s -> s.device.index()));
    return usable;
  }

  /** Reserves what a plan chose and returns the GPU memory reserved in all. */
  public long commit(Plan plan) {
    if (plan.devices().isEmpty()) {
      return 0;
    }
    long total = 0;
    for (int i : plan.devices()) {
      Slot s = slots.get(i);
      long amount = plan.exclusive() ? s.device.totalMemoryBytes() : plan.memoryPerDevice();
      s.free -= plan.exclusive() ? Math.max(0, s.free) : amount;
      s.reserved += amount;
      s.tasks++;
      s.exclusive |= plan.exclusive();
      s.lastPlacedAt = now;
      total += amount;
    }
    sequence++;
    return total;
  }

  /**
   * The most GPU memory this configuration lets Berth hand out on a device in all: its total minus
   * what the limits keep free. The host ledger holds every run's shares of the device to it.
   */
  public static long capacity(SchedulerConfig config, GpuDevice device) {
    long floor = Math.max(MemoryFloor.byLimit(device.totalMemoryBytes(), config.cudaMemoryUtilizationLimit()),
        config.remainCudaMemoryBytes());
    return Math.max(0, device.totalMemoryBytes() - floor);
  }

  /** The largest share of one device any task could ever get (0 without GPUs), in bytes. */
  public long maxShare() {
    return slots.values().stream().mapToLong(Slot::capacity).max().orElse(0);
  }

  private Optional<Refusal> refusal(Slot s, GpuRequest request) {
    String id = s.device.id();
    if (s.exclusive) {
      return Optional.of(new Refusal(Resource.GPUS, id, 1, 0, s.reserved, "held whole by another task"));
    }
    if (config.maxPerDevice() > 0 && s.tasks >= config.maxPerDevice()) {
      return Optional.of(new Refusal(Resource.DEVICE_TASKS, id, 1, 0, s.tasks, "scheduler.max-per-device"));
    }
    if (request.wholeDevices() > 0) {
      if (s.tasks > 0) {
        return Optional.of(new Refusal(Resource.GPUS, id, 1, 0, s.reserved, "in use by " + s.tasks + " Berth task(s)"));
      }
      long needFree = (long) Math.ceil(s.device.totalMemoryBytes() * config.cudaMemoryUtilizationLimit());
      if (s.free < needFree) {
        return Optional.of(new Refusal(Resource.GPU_MEMORY, id, needFree, Math.max(0, s.free), 0,
            s.withHolders("a whole device must be mostly free [utilization-limit.cuda-memory]")));
      }
      return Optional.empty();
    }
    long usable = s.free - s.floor;
    if (request.memoryBytes() > usable) {
      String rule = s.free < request.memoryBytes() ? "free device memory" : limitRule(s);
      return Optional.of(new Refusal(
          Resource.GPU_MEMORY, id, request.memoryBytes(), Math.max(0, usable), s.reserved, s.withHolders(rule)));
    }
    return Optional.empty();
  }

  /** The memory the limits keep free on this device. */
  private long floor(GpuDevice d) {
    return Math.max(floorByLimit(d), config.remainCudaMemoryBytes());
  }

  private long floorByLimit(GpuDevice d) {
    return MemoryFloor.byLimit(d.totalMemoryBytes(), config.cudaMemoryUtilizationLimit());
  }

  private String limitRule(Slot s) {
    if (s.floor == 0) {
      return "device memory";
    }
    return floorByLimit(s.device) >= config.remainCudaMemoryBytes()
        ? "utilization-limit.cuda-memory" : "remain-limit.cuda-memory";
  }

  private static String describeAllowed(GpuRequest r) {
    if (r.pinned().isPresent()) {
      return "cuda:" + r.pinned().getAsInt();
    }
    return "one of the targets " + r.targets();
  }

  private static final class Slot {
    final GpuDevice device;
    /** The memory the limits keep free; fixed for the pass, so worked out once. */
    final long floor;
    long free;
    long reserved;
    int tasks;
    boolean exclusive;
    Instant lastPlacedAt;
    final Instant stableSince;
    /** Who else on the host holds memory here, if anyone. */
    Optional<String> elsewhere = Optional.empty();

    Slot(GpuDevice device, long floor, Instant lastPlacedAt, Instant stableSince) {
      this.device = device;
      this.floor = floor;
      this.free = device.freeMemoryBytes();
      this.lastPlacedAt = lastPlacedAt;
      this.stableSince = stableSince;
    }

    /** A refusal's rule, naming the other runs that hold memory on this device, if any. */
    String withHolders(String rule) {
      return elsewhere.map(who -> rule + "; " + who).orElse(rule);
    }

    /** The most a share on this device could ever get: total minus the limits' floor. */
    long capacity() {
      return Math.max(0, device.totalMemoryBytes() - floor);
    }
  }

  /**
   * Where a task would go.
   *
   * @param devices chosen device indices; empty for a CPU task or when not placed
   * @param memoryPerDevice GPU memory to reserve on each (for a share)
   * @param exclusive whether the devices are taken whole
   * @param never why the task can never be placed, when it cannot
   * @param refusals why it is not placed now, when it is not
   */
  public record Plan(List<Integer> devices, long memoryPerDevice, boolean exclusive, Optional<String> never,
      List<Refusal> refusals) {

    /** A CPU task's plan: no device. */
    public static Plan cpu() {
      return new Plan(List.of(), 0, false, Optional.empty(), List.of());
    }

    static Plan on(List<Integer> devices, long memoryPerDevice, boolean exclusive) {
      return new Plan(devices, memoryPerDevice, exclusive, Optional.empty(), List.of());
    }

    static Plan never(String reason) {
      return new Plan(List.of(), 0, false, Optional.of(reason), List.of());
    }

    static Plan refused(List<Refusal> refusals) {
      return new Plan(List.of(), 0, false, Optional.empty(), List.copyOf(refusals));
    }

    /** Whether the task can be placed now. */
    public boolean placed() {
      return never.isEmpty() && refusals.isEmpty();
    }

    /** The device name for the placement: {@code cpu}, {@code cuda:1} or {@code cuda:0,cuda:1}. */
    public String deviceName() {
      return devices.isEmpty() ? Placement.CPU : Placement.gpuDevice(devices);
    }
  }
}
