package dev.berth.session;

import dev.berth.core.lifecycle.ClusterVerdict;
import dev.berth.core.lifecycle.Placement;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.units.DurationText;
import dev.berth.os.ProcessCommandRunner;
import dev.berth.runtime.engine.RunLayout;
import dev.berth.slurm.SlurmConfig;
import dev.berth.slurm.SlurmExecutor;
import dev.berth.slurm.SlurmKeys;
import dev.berth.slurm.SlurmResources;
import dev.berth.slurm.SlurmTuning;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A run in {@code slurm.mode: allocation}: Berth asks Slurm for a whole allocation
 * ({@code slurm.gres}, {@code slurm.cpus}, {@code slurm.memory}, {@code slurm.time}) and runs its own
 * local engine inside it ({@code berth resume --inside-allocation}), which packs the tasks onto the
 * allocation's GPUs by memory, the way no Slurm setting can. The engine inside writes the run's own
 * journal and reports in the shared workdir, so nothing needs merging: when the allocation ends
 * with tasks left (its time limit came, its node failed, or Slurm killed it for memory), the next
 * allocation resumes the same journal, up to {@code slurm.max-allocations}. When it stops otherwise
 * (cancelled, refused, or the Berth inside failed), the report is written from the journal and the
 * run stays resumable.
 *
 * <p>What it does it tells on the session's {@link SessionOptions.Builder#say say} lines, and why it
 * stopped on its {@link SessionOptions.Builder#warn warn} lines.
 */
final class Allocations {

  /** The {@code berth} command's main class, which the Berth inside each allocation runs. */
  private static final String MAIN = "dev.berth.cli.Main";
  /**
   * How an allocation may end with tasks left for the next one to take up: at its time limit, by the
   * cluster's fault, or killed for memory (what ran inside it was interrupted, and runs again).
   */
  private static final Set<ClusterVerdict.Kind> GOES_ON =
      EnumSet.of(ClusterVerdict.Kind.TIMED_OUT, ClusterVerdict.Kind.INFRASTRUCTURE, ClusterVerdict.Kind.HOST_OOM);

  private final SessionOptions options;

  Allocations(SessionOptions options) {
    this.options = options;
  }

  /**
   * Runs {@code spec}, whose journal is already in {@code layout}'s folder, through allocations.
   *
   * @return whether the run finished with every task succeeded; false when it finished otherwise, or
   *     stopped with tasks left (its report then written from the journal, the run resumable)
   */
  boolean run(RunSpec spec, RunLayout layout) throws InterruptedException {
    SlurmConfig slurm = SlurmKeys.TABLE.of(spec);
    List<String> extra = new ArrayList<>();
    if (!slurm.gres().isEmpty()) {
      extra.add("--gres=" + slurm.gres());
    }
    extra.addAll(slurm.extraArgs());
    SlurmConfig withExtra = slurm.toBuilder().set(SlurmKeys.EXTRA_ARGS, extra).build();
    try (SlurmExecutor executor = new SlurmExecutor(spec.name(), withExtra,
        SlurmTuning.forRun(slurm, 0), new ProcessCommandRunner(), id -> SlurmResources.DEFAULT)) {
      for (int n = lastAllocation(layout.runDir()); n <= slurm.maxAllocations(); n++) {
        LaunchRequest request = request(spec, layout, n);
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        Optional<Execution> job = executor.reattach(request, exit::complete);
        // an allocation found again is one a resume goes on from, however it ended
        boolean found = job.isPresent();
        if (found) {
          options.say("allocation " + n + ": found Slurm job " + job.get().clusterId().orElse("?") + " again");
        } else {
          try {
            job = Optional.of(executor.launch(request, exit::complete));
          } catch (LaunchException e) {
            return stopped(spec, layout, "allocation " + n + " could not be submitted: " + e.getMessage());
          }
          options.say("allocation " + n + ": Slurm job " + job.get().clusterId().orElse("?") + " submitted ("
              + describe(slurm) + "); berth status " + layout.runDir() + " shows the tasks inside");
        }
        int code = await(exit, job.get(), spec, layout);
        Optional<RunReport> report = finished(layout);
        if (report.isPresent()) {
          options.say(spec.name() + ": " + report.get().status() + " in allocation " + n + "; report: "
              + layout.reportJson());
          return report.get().status() == RunStatus.SUCCEEDED;
        }
        Optional<ClusterVerdict> verdict = job.get().verdict();
        String why = verdict.map(ClusterVerdict::reason).orElse("the Berth inside exited with code " + code);
        if (!found && !verdict.map(v -> GOES_ON.contains(v.kind())).orElse(false)) {
          return stopped(spec, layout, "allocation " + n + " ended with tasks left: " + why + "; see "
              + request.stdout());
        }
        options.say("allocation " + n + " ended with tasks left (" + why + "); the tasks it held run again in the"
            + " next");
      }
      return stopped(spec, layout, spec.name() + " used all " + slurm.maxAllocations()
          + " allocations [slurm.max-allocations] with tasks left");
    }
  }

  /**
   * Ends a run that stopped with tasks left: writes its report from the journal, says why and how to go on,
   * and returns false, since not every task succeeded; the run stays resumable.
   */
  private boolean stopped(RunSpec spec, RunLayout layout, String why) {
    String report;
    try {
      JournalView view = JournalView.read(layout.runDir());
      RunReports.rebuild(view, view.report(Instant.now()));
      report = "report: " + layout.reportJson();
    } catch (SessionException | IOException e) {
      report = "no report (" + e.getMessage() + ")";
    }
    options.warn("berth: " + why);
    options.warn("berth: " + spec.name() + " stopped with tasks left; " + report + "; berth resume " + layout.runDir()
        + " goes on");
    return false;
  }

  /** The job of allocation {@code n}: a Berth that resumes the run's journal with the local executor. */
  private static LaunchRequest request(RunSpec spec, RunLayout layout, int n) {
    Path dir = allocationDir(layout.runDir(), n);
    SlurmConfig slurm = SlurmKeys.TABLE.of(spec);
    List<String> argv = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-XX:+UseSerialGC"));
    if (slurm.memoryBytes() > 0) {
      // the Berth inside counts against the allocation: size its heap by the allocation, not the node
      argv.add("-XX:MaxRAM=" + slurm.memoryBytes());
    }
    argv.addAll(List.of("-cp", System.getProperty("java.class.path"), MAIN, "resume", "--no-progress",
        "--inside-allocation", layout.runDir().toString()));
    Placement whole = new Placement(Placement.CLUSTER, slurm.memoryBytes(), Math.max(1, slurm.cpus()) * 1000L, 0);
    return new LaunchRequest(TaskId.of("allocation-" + n), 1, argv, new TreeMap<>(), dir, dir.resolve("berth.log"),
        dir.resolve("berth.log")).withReservation(whole, 0);
  }

  /** The folder of allocation {@code n}: its batch script, job id and the log of the Berth inside. */
  static Path allocationDir(Path runDir, int n) {
    return runDir.resolve("allocations").resolve(Integer.toString(n));
  }

  /** The last allocation an earlier Berth submitted for the run, or 1 when none was. */
  static int lastAllocation(Path runDir) {
    int n = 1;
    while (Files.isDirectory(allocationDir(runDir, n + 1))) {
      n++;
    }
    return n;
  }

  private int await(CompletableFuture<Integer> exit, Execution job, RunSpec spec, RunLayout layout)
      throws InterruptedException {
    Thread hook = new Thread(() -> {
      if (options.leaveJobs().test(SlurmKeys.TABLE.of(spec).onExit())) {
        options.say("berth: the allocation is left running; berth resume " + layout.runDir() + " finds it again");
        return;
      }
      job.terminate(0);
      try {
        exit.get();
      } catch (InterruptedException | ExecutionException e) {
        Thread.currentThread().interrupt();
      }
    }, "berth-allocation-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return exit.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the allocation's exit could not be read", e);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // Ctrl-C: the hook is running
      }
    }
  }

  private static Optional<RunReport> finished(RunLayout layout) {
    try {
      JournalView view = JournalView.read(layout.runDir());
      return view.replay().run().status().isPresent() ? Optional.of(view.report(Instant.now())) : Optional.empty();
    } catch (SessionException e) {
      return Optional.empty();
    }
  }

  private static String describe(SlurmConfig slurm) {
    List<String> parts = new ArrayList<>();
    if (!slurm.gres().isEmpty()) {
      parts.add(slurm.gres());
    }
    parts.add(Math.max(1, slurm.cpus()) + " cpus");
    if (!slurm.time().isZero()) {
      parts.add(DurationText.format(slurm.time()));
    }
    return String.join(", ", parts);
  }
}
