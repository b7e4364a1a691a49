package dev.berth.session;

import dev.berth.core.lifecycle.Attempt;
import dev.berth.core.model.RunSpec;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.slurm.SlurmExecutor;
import dev.berth.slurm.SlurmJobs;
import dev.berth.slurm.SlurmKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The Slurm jobs of a run, for {@code berth status} and {@code berth cancel}: each task's job id from
 * the file its executor left in the attempt's folder (in allocation mode, the last allocation's job),
 * and, once {@link #withStates() asked}, the current states of the jobs not yet ended, from one
 * squeue call (sacct for jobs squeue has forgotten). Empty for a run on this machine.
 */
public final class ClusterJobs {

  private final Map<TaskRecord, String> jobs;
  private final Optional<String> allocation;
  private final SortedMap<String, String> states;
  private final Optional<String> problem;

  private ClusterJobs(Map<TaskRecord, String> jobs, Optional<String> allocation,
      SortedMap<String, String> states, Optional<String> problem) {
    this.jobs = jobs;
    this.allocation = allocation;
    this.states = states;
    this.problem = problem;
  }

  /** The jobs recorded for the run in {@code runDir}; Slurm is not asked anything. */
  public static ClusterJobs recorded(RunState state, Path runDir) {
    RunSpec spec = state.spec();
    Map<TaskRecord, String> jobs = new LinkedHashMap<>();
    Optional<String> allocation = Optional.empty();
    if (spec.config().onCluster() && SlurmKeys.TABLE.of(spec).allocationMode()) {
      allocation = SlurmExecutor.recordedJobId(
          Allocations.allocationDir(runDir, Allocations.lastAllocation(runDir)), 1);
    } else if (spec.config().onCluster()) {
      RunLayout layout = TaskRunners.layout(spec, new RunLayout(runDir));
      for (TaskRecord r : state.tasks()) {
        List<Attempt> attempts = r.history().attempts();
        if (!attempts.isEmpty()) {
          // The journal has the id once the submission was journalled; the executor's file even before.
          attempts.get(attempts.size() - 1).clusterId()
              .or(() -> SlurmExecutor.recordedJobId(layout.taskDir(r.spec()), attempts.size()))
              .ifPresent(j -> jobs.put(r, j));
        }
      }
    }
    return new ClusterJobs(jobs, allocation, new TreeMap<>(), Optional.empty());
  }

  /** The same jobs with the states Slurm reports for those not yet ended in Berth's eyes. */
  public ClusterJobs withStates() {
    List<String> live = new ArrayList<>(allocation.stream().toList());
    jobs.forEach((r, job) -> {
      if (!r.state().isTerminal()) {
        live.add(job);
      }
    });
    if (live.isEmpty()) {
      return this;
    }
    try {
      return new ClusterJobs(jobs, allocation, SlurmJobs.states(new ProcessCommandRunner(), live),
          Optional.empty());
    } catch (IOException e) {
      return new ClusterJobs(jobs, allocation, states, Optional.of(e.getMessage()));
    }
  }

  /** The job of the task's last attempt, if it was submitted. */
  public Optional<String> job(TaskRecord r) {
    return Optional.ofNullable(jobs.get(r));
  }

  /** What Slurm says of a job that has not ended in Berth's eyes, if it said anything. */
  public Optional<String> state(String job) {
    return Optional.ofNullable(states.get(job));
  }

  /** In allocation mode: the last allocation's job id. */
  public Optional<String> allocation() {
    return allocation;
  }

  /** Why the states could not be read, if they could not. */
  public Optional<String> problem() {
    return problem;
  }
}
