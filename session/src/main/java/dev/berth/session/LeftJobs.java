package dev.berth.session;

import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskPattern;
import dev.berth.core.scheduling.DependantsFirst;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.CommandRunner;
import dev.berth.os.ProcessCommandRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The Slurm jobs a stopped Berth left running (after {@code --on-exit leave}, or when it was
 * killed), for {@code berth cancel} when no Berth runs the run.
 */
public final class LeftJobs {

  private static final Duration SCANCEL_TIMEOUT = Duration.ofSeconds(60);

  private LeftJobs() {}

  /**
   * The recorded jobs of the tasks the journal says were running, selected by {@code selectors} (ids,
   * globs, {@code group:NAME}; all when empty), and of the running tasks that depend on them, which can
   * no longer run once they are cancelled: in waves, dependants first ({@link DependantsFirst}), so that
   * Slurm never sees a parent cancelled while a dependant it holds for it is still pending.
   */
  public static List<List<String>> matching(RunState state, Path runDir, List<String> selectors) {
    ClusterJobs recorded = ClusterJobs.recorded(state, runDir);
    Set<TaskId> selected = new TreeSet<>();
    for (TaskRecord r : state.tasks()) {
      if (r.state().hasProcess()
          && (selectors.isEmpty() || selectors.stream().anyMatch(s -> TaskPattern.selects(s, r.spec())))) {
        selected.add(r.spec().id());
      }
    }
    boolean grew = true;
    while (grew) {
      grew = false;
      for (TaskRecord r : state.tasks()) {
        if (r.state().hasProcess() && !selected.contains(r.spec().id())
            && r.spec().dependsOn().stream().anyMatch(selected::contains)) {
          grew = selected.add(r.spec().id());
        }
      }
    }
    List<List<String>> waves = new ArrayList<>();
    for (List<TaskId> wave : DependantsFirst.waves(state, selected)) {
      List<String> jobs = new ArrayList<>();
      wave.forEach(id -> recorded.job(state.task(id)).ifPresent(jobs::add));
      if (!jobs.isEmpty()) {
        waves.add(List.copyOf(jobs));
      }
    }
    return List.copyOf(waves);
  }

  /** Runs one scancel for each wave of {@code waves}, in order. */
  public static void cancel(List<List<String>> waves) throws IOException {
    cancel(new ProcessCommandRunner(), waves);
  }

  /** Runs one scancel for each wave of {@code waves}, in order, through {@code runner}. */
  static void cancel(CommandRunner runner, List<List<String>> waves) throws IOException {
    for (List<String> jobs : waves) {
      List<String> argv = new ArrayList<>(List.of("scancel"));
      argv.addAll(jobs);
      CommandRunner.Result result = runner.run(argv, SCANCEL_TIMEOUT);
      if (result.exitCode() != 0) {
        throw new IOException(result.stderr().strip());
      }
    }
  }
}
