package dev.berth.core.scheduling;

import dev.berth.core.model.Dependency;
import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.lifecycle.AttemptStage;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.lifecycle.Outcome;
import dev.berth.core.model.TaskId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Device constraints a task's history and dependencies put on its next attempt. Pure. */
final class DeviceRules {

  private DeviceRules() {}

  /**
   * Devices where the task failed in an ordinary way (not out of memory, not refused as busy), which
   * a retry avoids when the task asks for it (ipyparallel's blacklist): the one whose last failure
   * is oldest first, the order in which a retry that has no other device left goes back to them.
   */
  static List<Integer> blacklist(TaskRecord r) {
    if (!r.spec().gpu().blacklist() || !r.spec().gpu().wantsGpu() || r.history().attemptCount() == 0) {
      return List.of();
    }
    List<Attempt> attempts = r.history().attempts();
    List<Placement> ranOn = AttemptStage.ranOn(r.history());
    Set<Integer> devices = new LinkedHashSet<>();
    for (int i = 0; i < attempts.size(); i++) {
      Outcome o = attempts.get(i).end().map(e -> e.outcome()).orElse(null);
      if (o == Outcome.FAILED || o == Outcome.KILLED) {
        for (int d : ranOn.get(i).gpuIndices()) {
          devices.remove(d); // moves to the end: it failed the task most recently
          devices.add(d);
        }
      }
    }
    return List.copyOf(devices);
  }

  /** The GPU the tasks this one follows ran on, if they ran on one. */
  static Optional<Integer> followDevice(TaskRecord r, RunState state) {
    return followPlacements(r, state).values().stream().map(p -> p.gpuIndices().get(0)).findFirst();
  }

  /**
   * The GPU memory a follower that asks for none of its own reserves on the device it follows: the
   * most that the last attempts of the followed tasks that ran there reserved on it, so what they
   * loaded fits again; 0 when it follows no task that ran on a GPU.
   */
  static long followShare(TaskRecord r, RunState state) {
    Optional<Integer> device = followDevice(r, state);
    if (device.isEmpty()) {
      return 0;
    }
    return followPlacements(r, state).values().stream().filter(p -> p.gpuIndices().get(0).equals(device.get()))
        .mapToLong(p -> p.gpuMemoryBytes() / p.gpuIndices().size()).max().orElse(0);
  }

  /**
   * Why the task can never run: it must follow all of tasks that ran on different GPUs
   * (ipyparallel's ImpossibleDependency), naming each task's device.
   */
  static Optional<String> followConflict(TaskRecord r, RunState state) {
    if (!r.spec().follow().map(Dependency::all).orElse(false)) {
      return Optional.empty();
    }
    var placements = followPlacements(r, state);
    if (placements.values().stream().map(p -> p.gpuIndices().get(0)).distinct().count() > 1) {
      List<String> where = new ArrayList<>();
      placements.forEach((id, p) -> where.add(id + " on cuda:" + p.gpuIndices().get(0)));
      return Optional.of("follows tasks that ran on different devices: " + String.join(", ", where));
    }
    return Optional.empty();
  }

  /**
   * For each followed task that satisfied the edge and whose last attempt ran on a GPU (trained on
   * one, for a two-stage task), where that attempt ran.
   */
  private static TreeMap<TaskId, Placement> followPlacements(TaskRecord r, RunState state) {
    TreeMap<TaskId, Placement> placements = new TreeMap<>();
    if (r.spec().follow().isEmpty()) {
      return placements;
    }
    Dependency follow = r.spec().follow().get();
    for (TaskId parent : follow.tasks()) {
      TaskRecord p = state.task(parent);
      if (!DependencyCheck.satisfies(follow, p.state()) || p.history().attemptCount() == 0) {
        continue;
      }
      List<Placement> ranOn = AttemptStage.ranOn(p.history());
      Placement last = ranOn.get(ranOn.size() - 1);
      if (!last.gpuIndices().isEmpty()) {
        placements.put(parent, last);
      }
    }
    return placements;
  }
}
