package dev.berth.core.scheduling;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.TaskState;
import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.Resources;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.resources.DeviceBudget;
import dev.berth.core.resources.HostBudget;
import dev.berth.core.resources.Refusal;
import dev.berth.core.resources.Resource;
import java.util.List;
import java.util.Optional;

/**
 * What one pass decides for one ready task: fail it when it can never run here, let it wait for a
 * retry delay, settle it when its queue-timeout fell due, count it as blocked when nothing more can
 * start in the pass, or start it with a reservation taken from the pass's budgets. Pure, like the
 * {@link Scheduler} it serves; one instance per pass.
 */
final class ReadyAdmission {

  private final SchedulerConfig config;
  private final Attempts attempts;
  private final Requests requests;
  private final RunState state;
  private final HostBudget host;
  private final DeviceBudget devices;
  private final WaitingGpuAsks asks;
  private final Pass pass;
  private int waitingTwoStage;

  /**
   * @param waitingTwoStage two-stage tasks started and not yet training, which {@code scheduler.max-waiting} caps
   */
  ReadyAdmission(SchedulerConfig config, Attempts attempts, Requests requests, RunState state, HostBudget host,
      DeviceBudget devices, WaitingGpuAsks asks, Pass pass, int waitingTwoStage) {
    this.config = config;
    this.attempts = attempts;
    this.requests = requests;
    this.state = state;
    this.host = host;
    this.devices = devices;
    this.asks = asks;
    this.pass = pass;
    this.waitingTwoStage = waitingTwoStage;
  }

  /** Decides for {@code r} and adds what it decided to the pass. */
  void consider(TaskRecord r) {
    TaskId id = r.spec().id();
    Optional<String> outgrown = attempts.outgrown(r, host.maxMemory());
    if (outgrown.isPresent()) {
      pass.actions.add(new Decision.Fail(id, outgrown.get()));
      return;
    }
    Requests.Request memory = requests.memory(r, state, host.maxMemory());
    Resources request = new Resources(memory.bytes(), r.spec().resources().milliCpus());
    Optional<String> never = Feasibility.onHost(host, request);
    if (never.isPresent()) {
      pass.actions.add(new Decision.Fail(id, never.get()));
      return;
    }
    Optional<String> conflict = DeviceRules.followConflict(r, state);
    if (conflict.isPresent()) {
      pass.actions.add(new Decision.Settle(id, TaskState.UNREACHABLE, conflict.get()));
      return;
    }
    Requests.Request gpuRequest = requests.gpuMemory(r, state, devices.maxShare());
    GpuRequest gpu = r.spec().gpu().withMemory(gpuRequest.bytes());
    DeviceBudget.Plan plan = devices.plan(gpu, DeviceRules.blacklist(r), DeviceRules.followDevice(r, state),
        gpu.wantsGpu() ? asks.besides(r) : 0);
    if (plan.never().isPresent()) {
      pass.actions.add(new Decision.Fail(id, plan.never().get()));
      return;
    }
    if (QueueTimeouts.sitsOut(r, pass)) {
      return;
    }
    if (pass.blockedBy.isPresent()) {
      pass.blockedCount++;
      return;
    }
    Optional<Refusal> global = host.globalRefusal();
    if (global.isPresent()) {
      pass.blockedBy = global;
      pass.blockedCount++;
      return;
    }
    if (r.spec().twoStage()) {
      // A two-stage task starts and loads on the CPU; its device comes when it is loaded.
      if (config.maxWaiting() > 0 && waitingTwoStage >= config.maxWaiting()) {
        pass.waiting.add(new Waiting(id, List.of(new Refusal(
            Resource.PROCESSES, HostBudget.HOST, 1, 0, waitingTwoStage, "scheduler.max-waiting"))));
        return;
      }
      plan = DeviceBudget.Plan.cpu();
    }
    if (!plan.placed()) {
      pass.waiting.add(new Waiting(id, plan.refusals()));
      return;
    }
    HostBudget.Admission admission = host.tryReserve(request);
    if (admission.placement().isEmpty()) {
      pass.waiting.add(new Waiting(id, admission.refusals()));
      return;
    }
    Placement admitted = admission.placement().get();
    long gpuMemory = devices.commit(plan);
    Placement placement = new Placement(plan.deviceName(), admitted.memoryBytes(), admitted.milliCpus(), gpuMemory);
    pass.actions.add(new Decision.Start(id, r.history().attemptCount() + 1, placement, Optional.empty(),
        Requests.learned(memory, gpuRequest, gpuMemory)));
    if (r.spec().twoStage()) {
      waitingTwoStage++;
    }
  }
}
