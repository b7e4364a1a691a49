package dev.berth.core.scheduling;

import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.Resources;
import dev.berth.core.model.TaskId;
import dev.berth.core.resources.DeviceBudget;
import dev.berth.core.resources.HostBudget;
import dev.berth.core.resources.HostSnapshot;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which tasks can never be placed, by the very checks the {@link Scheduler} fails them with: the
 * host's {@link HostBudget#impossible} and the GPUs' {@link DeviceBudget.Plan#never}. Pure.
 */
public final class Feasibility {

  private Feasibility() {}

  /**
   * The tasks that no state of this host and these GPUs could ever place, each with the reason a
   * run would fail it with, in start order: what a dry run shows. Looks at every task of the run,
   * whatever its group or edges, as if nothing else ran. On a cluster, which places tasks itself,
   * none.
   */
  public static Map<TaskId, String> neverPlaced(Scheduler scheduler, RunState state, HostSnapshot snapshot,
      Instant now) {
    Map<TaskId, String> never = new LinkedHashMap<>();
    if (scheduler.config().onCluster()) {
      return never;
    }
    Requests requests = scheduler.requests();
    HostBudget host = HostBudget.of(scheduler.config(), snapshot, state.running());
    DeviceBudget devices = DeviceBudget.of(scheduler.config(), snapshot, state, now);
    for (TaskRecord r : state.tasks()) {
      Resources request = new Resources(requests.memory(r, state, host.maxMemory()).bytes(),
          r.spec().resources().milliCpus());
      Optional<String> reason = onHost(host, request);
      if (reason.isEmpty() && r.spec().gpu().wantsGpu()) {
        GpuRequest gpu = r.spec().gpu().withMemory(requests.gpuMemory(r, state, devices.maxShare()).bytes());
        reason = devices.plan(gpu, List.of(), Optional.empty()).never();
      }
      reason.ifPresent(why -> never.put(r.spec().id(), why));
    }
    return never;
  }

  /** Why the host could never admit {@code request}, as the reason its task fails with; empty if it could. */
  static Optional<String> onHost(HostBudget host, Resources request) {
    return host.impossible(request).map(refusal -> "can never be placed: " + refusal.describe());
  }
}
