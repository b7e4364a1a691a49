package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.resources.HostSnapshot;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.spi.Launch;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.SharedReservations;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What an attempt's process is given: its command, its folder and log files, its reservation, and
 * the variables that tell it its task, its devices, its two-stage channel and the host ledger the
 * run takes part in. Loop thread only.
 */
final class LaunchRequests {

  private final RunState state;
  private final RunLayout layout;
  private final TwoStageChannel channel;
  private final Supplier<HostSnapshot> snapshot;
  private String hostLedger; // the host ledger the run takes part in, null when none

  LaunchRequests(RunState state, RunLayout layout, TwoStageChannel channel, Supplier<HostSnapshot> snapshot) {
    this.state = state;
    this.layout = layout;
    this.channel = channel;
    this.snapshot = snapshot;
  }

  /** Names the host ledger the run takes part in to its attempts, which a ledger made anew looks for. */
  void hostLedger(String where) {
    this.hostLedger = where;
  }

  /** The request for attempt {@code attempt} of {@code r} with this placement; a two-stage one registers its channel. */
  LaunchRequest request(TaskRecord r, int attempt, Placement placement) {
    TaskSpec spec = r.spec();
    SortedMap<String, String> channelEnv = spec.twoStage() ? channel.register(spec.id(), attempt) : new TreeMap<>();
    SortedMap<String, String> env = TaskEnvironment.of(
        state, layout, spec, attempt, placement, channelEnv, !snapshot.get().gpus().devices().isEmpty());
    if (hostLedger != null) {
      env.put(SharedReservations.LEDGER_VARIABLE, hostLedger);
    }
    LaunchRequest request = new LaunchRequest(
        spec.id(), attempt, spec.command(), env, layout.taskDir(spec), layout.stdout(spec, attempt),
        layout.stderr(spec, attempt))
        .withReservation(placement, spec.gpu().wholeDevices())
        .withEnforceMemory(spec.find(TaskKeys.ENFORCE_MEMORY))
        .withPool(spec.find(TaskKeys.POOL));
    return spec.params().isEmpty() ? request : request.withArrayKey(arrayKey(spec));
  }

  /** Points the task's latest-log links at the launched attempt's files, unless its execution links them itself. */
  void showLogs(Launch launch) {
    if (launch.execution().isPresent() && !launch.execution().get().linksItsLogs()) {
      AttemptLogs.showLatest(layout, state.task(launch.request().task()).spec(), launch.request().attempt());
    }
  }

  /**
   * Tasks of one group expanded over the same matrix parameters share a key, which also names their
   * job array ({@code train.lr+seed}); only characters every Slurm tool takes in a job name are kept.
   */
  private static String arrayKey(TaskSpec spec) {
    String key = spec.group() + "." + String.join("+", spec.params().keySet());
    return key.replaceAll("[^A-Za-z0-9._+-]", "_");
  }
}
