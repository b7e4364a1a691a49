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
    if (r.spec().follow().isEmpty()) {
      return Optional.empty();
    }
    List<Integer> devices = followDevices(r, state).values().stream().distinct().toList();
    return devices.isEmpty() ? Optional.empty() : Optional.of(devices.get(0));
  }

  /** Why the followed tasks cannot be followed: they ran on different GPUs and all must be followed. */
  static Optional<String> followConflict(TaskRecord r, RunState state) {
    if (r.spec().follow().isEmpty()) {
      return Optional.empty();
    }
    var devices = followDevices(r, state);
    if (r.spec().follow().map(Dependency::all).orElse(false) && devices.values().stream().distinct().count() > 1) {
      List<String> where = new ArrayList<>();
      devices.forEach((id, d) -> where.add(id + " on cuda:" + d));
      return Optional.of("follows tasks that ran on different devices: " + String.join(", ", where));
    }
    return Optional.empty();
  }

  /** For each followed task that satisfied the edge and last ran on a GPU, that GPU. */
  private static TreeMap<TaskId, Integer> followDevices(TaskRecord r, RunState state) {
    TreeMap<TaskId, Integer> devices = new TreeMap<>();
    if (r.spec().follow().isEmpty()) {
      return devices;
    }
    Dependency follow = r.spec().follow().get();
    for (TaskId parent : follow.tasks()) {
      TaskRecord p = state.task(parent);
      if (!DependencyCheck.satisfies(follow, p.state())) {
        continue;
      }
      List<Attempt> attempts = p.history().attempts();
      if (!attempts.isEmpty()) {
        List<Integer> gpus = attempts.get(attempts.size() - 1).placement().gpuIndices();
        if (!gpus.isEmpty()) {
          devices.put(parent, gpus.get(0));
        }
      }
    }
    return devices;
  }
}
