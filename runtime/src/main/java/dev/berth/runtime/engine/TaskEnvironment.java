package dev.berth.runtime.engine;

import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.scheduling.RunState;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The variables an attempt starts with: the task's own, then Berth's — where it runs, what it was
 * given, the folders of the tasks it depends on, its matrix values — and the GPU visibility.
 */
final class TaskEnvironment {

  private TaskEnvironment() {}

  /**
   * The environment of one attempt.
   *
   * @param channel the control-channel variables of a two-stage attempt (empty for one-stage tasks)
   * @param hostHasGpus whether the host has GPUs, which a CPU task is then kept away from
   */
  static SortedMap<String, String> of(RunState state, RunLayout layout, TaskSpec spec, int attempt,
      Placement placement, SortedMap<String, String> channel, boolean hostHasGpus) {
    SortedMap<String, String> env = new TreeMap<>(spec.env());
    env.put("BERTH_RUN", state.spec().name());
    env.put("BERTH_RUN_DIR", layout.runDir().toString());
    env.put("BERTH_GROUP", spec.group());
    env.put("BERTH_TASK_ID", spec.id().value());
    env.put("BERTH_TASK_DIR", layout.taskDir(spec).toString());
    env.put("BERTH_ATTEMPT", Integer.toString(attempt));
    env.put("BERTH_DEVICE", placement.device());
    List<Integer> gpuIndices = placement.gpuIndices();
    if (placement.device().equals(Placement.CLUSTER)) {
      // The cluster picks the GPUs and sets CUDA_VISIBLE_DEVICES for the job; Berth must not override it.
      if (placement.gpuMemoryBytes() > 0) {
        env.put("BERTH_GPU_MEMORY_BYTES", Long.toString(placement.gpuMemoryBytes()));
      }
    } else if (spec.twoStage()) {
      // The device is chosen after loading, so a two-stage task sees every GPU and trains on the one named.
      env.putAll(channel);
      env.put("CUDA_DEVICE_ORDER", "PCI_BUS_ID");
    } else if (!gpuIndices.isEmpty()) {
      env.put("CUDA_DEVICE_ORDER", "PCI_BUS_ID"); // the order NVML and nvidia-smi number devices in
      env.put("CUDA_VISIBLE_DEVICES", String.join(",", gpuIndices.stream().map(String::valueOf).toList()));
      env.put("BERTH_GPU_MEMORY_BYTES", Long.toString(placement.gpuMemoryBytes()));
    } else if (hostHasGpus) {
      env.put("CUDA_VISIBLE_DEVICES", ""); // a CPU task must not grab a GPU Berth did not give it
    }
    env.put("BERTH_CPUS", Double.toString(placement.milliCpus() / 1000.0));
    env.put("BERTH_MEMORY_BYTES", Long.toString(placement.memoryBytes()));
    for (TaskId dep : spec.dependsOn()) {
      env.put("BERTH_DEP_" + dep.envName() + "_DIR", layout.taskDir(state.task(dep).spec()).toString());
    }
    if (!spec.dependsOn().isEmpty()) {
      env.put("BERTH_DEPS_FILE", DependencyFile.write(layout, state, spec).toString());
    }
    spec.params().forEach((k, v) -> env.put("BERTH_PARAM_" + TaskId.envName(k), v));
    return env;
  }
}
