package dev.berth.session;

import dev.berth.core.model.TaskPattern;
import dev.berth.core.scheduling.RunState;
import dev.berth.core.scheduling.TaskRecord;
import dev.berth.os.CommandRunner;
import dev.berth.os.ProcessCommandRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The Slurm jobs a stopped Berth left running (after {@code --on-exit leave}, or when it was
 * killed), for {@code berth cancel} when no Berth runs the run.
 */
public final class LeftJobs {

  private static final Duration SCANCEL_TIMEOUT = Duration.ofSeconds(60);

  private LeftJobs() {}

  /**
   * The recorded jobs of the tasks the journal says were running, selected by {@code selectors}
   * (ids, globs, {@code group:NAME}; all when empty).
   */
  public static List<String> matching(RunState state, Path runDir, List<String> selectors) {
    ClusterJobs recorded = ClusterJobs.recorded(state, runDir);
    List<String> jobs = new ArrayList<>();
    for (TaskRecord r : state.tasks()) {
      if (r.state().hasProcess()
          && (selectors.isEmpty() || selectors.stream().anyMatch(s -> TaskPattern.selects(s, r.spec())))) {
        recorded.job(r).ifPresent(jobs::add);
      }
    }
    return jobs;
  }

  /** Runs one scancel for all of {@code jobs}. */
  public static void cancel(List<String> jobs) throws IOException {
    cancel(new ProcessCommandRunner(), jobs);
  }

  /** Runs one scancel for all of {@code jobs} through {@code runner}. */
  static void cancel(CommandRunner runner, List<String> jobs) throws IOException {
    List<String> argv = new ArrayList<>(List.of("scancel"));
    argv.addAll(jobs);
    CommandRunner.Result result = runner.run(argv, SCANCEL_TIMEOUT);
    if (result.exitCode() != 0) {
      throw new IOException(result.stderr().strip());
    }
  }
}
