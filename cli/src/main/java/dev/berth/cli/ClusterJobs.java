package dev.berth.cli;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.model.RunSpec;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.runtime.gpu.ProcessCommandRunner;
import dev.berth.slurm.SlurmExecutor;
import dev.berth.slurm.SlurmJobs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Slurm jobs of a run, for {@code berth status}: each task's job id from the file its executor
 * left in the attempt's folder, and the jobs' current states from one squeue call (sacct for jobs
 * squeue has forgotten). Empty for a run on this machine.
 */
final class ClusterJobs {

  private final Map<TaskRecord, String> jobs;
  private final SortedMap<String, String> states;
  private final Optional<String> allocation;
  private final Optional<String> problem;

  private ClusterJobs(Map<TaskRecord, String> jobs, SortedMap<String, String> states, Optional<String> allocation,
      Optional<String> problem) {
    this.jobs = jobs;
    this.states = states;
    this.allocation = allocation;
    this.problem = problem;
  }

  /** The jobs of the run in {@code runDir}, asking Slurm for the states of those not yet ended. */
  static ClusterJobs of(RunState state, Path runDir) {
    RunSpec spec = state.spec();
    if (!spec.config().onCluster()) {
      return new ClusterJobs(Map.of(), new TreeMap<>(), Optional.empty(), Optional.empty());
    }
    RunLayout layout = TaskRunners.layout(spec, new RunLayout(runDir));
    Map<TaskRecord, String> jobs = new java.util.LinkedHashMap<>();
    List<String> live = new ArrayList<>();
    Optional<String> allocation = Optional.empty();
    if (spec.config().slurm().allocationMode()) {
      allocation = SlurmExecutor.recordedJobId(
          AllocationRun.allocationDir(runDir, AllocationRun.lastAllocation(runDir)), 1);
      allocation.ifPresent(live::add);
    } else {
      for (TaskRecord r : state.tasks()) {
        List<Attempt> attempts = r.history().attempts();
        if (attempts.isEmpty()) {
          continue;
        }
        Optional<String> job = SlurmExecutor.recordedJobId(layout.taskDir(r.spec()), attempts.size());
        job.ifPresent(j -> {
          jobs.put(r, j);
          if (!r.state().isTerminal()) {
            live.add(j);
          }
        });
      }
    }
    SortedMap<String, String> states = new TreeMap<>();
    Optional<String> problem = Optional.empty();
    if (!live.isEmpty()) {
      try {
        states = SlurmJobs.states(new ProcessCommandRunner(), live);
      } catch (IOException e) {
        problem = Optional.of(e.getMessage());
      }
    }
    SortedMap<String, String> known = states;
    return new ClusterJobs(jobs, states,
        allocation.map(a -> a + Optional.ofNullable(known.get(a)).map(s -> " " + s).orElse("")), problem);
  }

  /** The job of the task's last attempt, if it was submitted. */
  Optional<String> job(TaskRecord r) {
    return Optional.ofNullable(jobs.get(r));
  }

  /** What Slurm says of a job that has not ended in Berth's eyes, if it said anything. */
  Optional<String> state(String job) {
    return Optional.ofNullable(states.get(job));
  }

  /** In allocation mode: the last allocation's job id and state. */
  Optional<String> allocation() {
    return allocation;
  }

  /** Why the states could not be read, if they could not. */
  Optional<String> problem() {
    return problem;
  }
}
