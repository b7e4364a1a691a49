package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link CommandRunner} that acts as a small Slurm: sbatch queues a job, squeue and sacct answer in
 * the formats the tracker asks for, scancel cancels. The test moves jobs to their ends. Thread-safe.
 */
final class FakeSlurm implements CommandRunner {

  /** One job or array element as the fake keeps it. */
  private static final class Job {
    final String id;
    final String name;
    String state = "PENDING";
    String reason = "Priority";
    long waitStatus;
    boolean inSqueue = true;
    boolean inSacct = true;
    /** An array element cancelled while pending: Slurm keeps no record of it, only of its array. */
    boolean dropped;
    /** The batch step's MaxRSS as sacct prints it. */
    String maxRss = "1024K";
    /** Submit, Start and End as sacct prints them; Start and End follow the state unless set. */
    String submit = "2026-11-29T10:00:00";
    String start;
    String end;
    String nodes = "node1";

    Job(String id, String name) {
      this.id = id;
      this.name = name;
    }
  }

  private static final Set<String> RUNNING_STATES = Set.of("PENDING", "RUNNING", "COMPLETING", "CONFIGURING");

  private final Map<String, Job> jobs = new LinkedHashMap<>();
  private final List<List<String>> calls = new ArrayList<>();
  private final Deque<Object> squeueAnswers = new ArrayDeque<>();
  private final Map<String, CompletableFuture<Void>> watches = new HashMap<>();
  private final Map<String, CompletableFuture<Void>> cancellations = new HashMap<>();
  private String refusal;
  private final Map<String, Deque<Result>> failures = new HashMap<>();
  private int nextId = 100;
  /** MaxArraySize as scontrol shows it, or -1 when scontrol does not show it. */
  private int shownMaxArraySize = -1;
  /** The largest array sbatch accepts (Slurm's default MaxArraySize of 1001, unless set). */
  private int maxArraySize = ClusterLimits.DEFAULT_MAX_ARRAY_SIZE;

  /** The user's MaxSubmitJobs, or -1 for none: sbatch refuses a job past it, sacctmgr shows it. */
  private int maxSubmitJobs = -1;

  /**
   * The user's MaxSubmitJobs: sbatch refuses a job, or an array of elements, past {@code limit} jobs not
   * ended yet (as Slurm does, with QOSMaxSubmitJobPerUserLimit), and sacctmgr shows {@code shown}
   * (-1: sacctmgr cannot run).
   */
  synchronized FakeSlurm maxSubmitJobs(int limit, int shown) {
    maxSubmitJobs = limit;
    shownMaxSubmitJobs = shown;
    return this;
  }

  private int shownMaxSubmitJobs = -1;

  /** The cluster's MaxArraySize: sbatch refuses arrays with an index at or past it, scontrol shows it. */
  synchronized FakeSlurm maxArraySize(int size) {
    return maxArraySize(size, size);
  }

  /** A MaxArraySize sbatch keeps to while scontrol shows {@code shown} (-1: shows none). */
  synchronized FakeSlurm maxArraySize(int size, int shown) {
    maxArraySize = size;
    shownMaxArraySize = shown;
    return this;
  }

  /** Every command run so far. */
  synchronized List<List<String>> calls() {
    return List.copyOf(calls);
  }

  /** The calls to {@code program}. */
  synchronized List<List<String>> calls(String program) {
    return calls.stream().filter(c -> c.get(0).equals(program)).toList();
  }

  /** The next sbatch fails with this standard error. */
  synchronized FakeSlurm refuseNextSubmission(String stderr) {
    refusal = stderr;
    return this;
  }

  /** The next {@code times} calls of {@code program} answer {@code answer} and do nothing else. */
  synchronized FakeSlurm failNext(String program, int times, Result answer) {
    Deque<Result> queue = failures.computeIfAbsent(program, p -> new ArrayDeque<>());
    for (int i = 0; i < times; i++) {
      queue.add(answer);
    }
    return this;
  }

  /** The next squeue call answers this instead (a {@link Result} or an {@link IOException}). */
  synchronized FakeSlurm answerNextSqueue(Object answer) {
    squeueAnswers.add(answer);
    return this;
  }

  /** Completes once squeue is asked about exactly these ids ({@code "100,101"}). */
  synchronized CompletableFuture<Void> whenSqueueAsksAbout(String ids) {
    return watches.computeIfAbsent(ids, k -> new CompletableFuture<>());
  }

  /** Completes once scancel has cancelled the job. */
  synchronized CompletableFuture<Void> whenCancelled(SlurmJobId id) {
    return cancellations.computeIfAbsent(id.value(), k -> new CompletableFuture<>());
  }

  /** Moves a job to {@code state}, ended with the raw wait status. */
  synchronized FakeSlurm end(SlurmJobId id, String state, String reason, long waitStatus) {
    Job job = job(id);
    job.state = state;
    job.reason = reason;
    job.waitStatus = waitStatus;
    return this;
  }

  /** Moves a job to {@code state} without ending it. */
  synchronized FakeSlurm move(SlurmJobId id, String state) {
    job(id).state = state;
    return this;
  }

  /** sacct's MaxRSS for the job's batch step, e.g. {@code 424520K}. */
  synchronized FakeSlurm used(SlurmJobId id, String maxRss) {
    job(id).maxRss = maxRss;
    return this;
  }

  /** sacct's Submit, Start and End for the job, e.g. {@code 2026-11-29T10:00:00} ({@code Unknown}: none). */
  synchronized FakeSlurm times(SlurmJobId id, String submit, String start, String end) {
    Job job = job(id);
    job.submit = submit;
    job.start = start;
    job.end = end;
    return this;
  }

  /** sacct's NodeList for the job. */
  synchronized FakeSlurm ranOn(SlurmJobId id, String nodes) {
    job(id).nodes = nodes;
    return this;
  }

  /** squeue no longer lists the job, as after MinJobAge; sacct still does. */
  synchronized FakeSlurm purgeFromSqueue(SlurmJobId id) {
    job(id).inSqueue = false;
    return this;
  }

  /** Cancels a job with scancel, as someone other than Berth would. */
  synchronized FakeSlurm cancel(SlurmJobId id) {
    scancel(List.of("scancel", id.value()));
    return this;
  }

  /** Neither squeue nor sacct knows the job. */
  synchronized FakeSlurm forget(SlurmJobId id) {
    job(id).inSqueue = false;
    job(id).inSacct = false;
    return this;
  }

  @Override
  public synchronized Result run(List<String> argv, Duration timeout) throws IOException {
    calls.add(argv);
    Result failure = failures.getOrDefault(argv.get(0), new ArrayDeque<>()).poll();
    if (failure != null) {
      return failure;
    }
    return switch (argv.get(0)) {
      case "sbatch" -> sbatch(argv);
      case "squeue" -> squeue(argv);
      case "sacct" -> sacct(argv);
      case "scancel" -> scancel(argv);
      case "scontrol" -> Result.exited(0, "Configuration data as of 2026-11-29T00:00:00\nClusterName = fake\n"
          + (shownMaxArraySize < 0 ? "" : "MaxArraySize            = " + shownMaxArraySize + "\n")
          + "MaxJobCount             = 10000\n");
      case "sacctmgr" -> {
        if (shownMaxSubmitJobs < 0) {
          throw new IOException("Cannot run program \"sacctmgr\": error=2, No such file or directory");
        }
        yield Result.exited(0, shownMaxSubmitJobs + "|\n|\n");
      }
      default -> throw new IOException("Cannot run program \"" + argv.get(0) + "\": error=2, No such file or directory");
    };
  }

  private Result sbatch(List<String> argv) {
    if (refusal != null) {
      String stderr = refusal;
      refusal = null;
      return new Result(1, "", stderr, false);
    }
    String array = option(argv, "--array=");
    long live = jobs.values().stream().filter(j -> !j.dropped && RUNNING_STATES.contains(j.state)).count();
    int asked = array.isEmpty() ? 1 : Integer.parseInt(array.substring(2).split("%")[0]) + 1;
    if (maxSubmitJobs >= 0 && live + asked > maxSubmitJobs) {
      return new Result(1, "", "sbatch: error: QOSMaxSubmitJobPerUserLimit\nsbatch: error: Batch job submission"
          + " failed: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)\n", false);
    }
    String id = Integer.toString(nextId++);
    String name = option(argv, "--job-name=");
    if (array.isEmpty()) {
      jobs.put(id, new Job(id, name));
    } else {
      int last = Integer.parseInt(array.substring(2).split("%")[0]);
      if (last >= maxArraySize) {
        nextId--;
        return new Result(1, "", "sbatch: error: Batch job submission failed: Invalid job array specification\n", false);
      }
      for (int i = 0; i <= last; i++) {
        jobs.put(id + "_" + i, new Job(id + "_" + i, name));
      }
    }
    return Result.exited(0, id + "\n");
  }

  private Result squeue(List<String> argv) throws IOException {
    CompletableFuture<Void> watch = watches.get(option(argv, "--jobs="));
    if (watch != null) {
      watch.complete(null);
    }
    Object answer = squeueAnswers.poll();
    if (answer instanceof IOException e) {
      throw e;
    }
    if (answer instanceof Result r) {
      return r;
    }
    Set<String> asked = ids(argv);
    StringBuilder out = new StringBuilder();
    for (Job job : jobs.values()) {
      if (job.inSqueue && asked.contains(SlurmJobId.of(job.id).queryId())) {
        out.append(job.id).append('|').append(job.id.replace('_', '0')).append('|').append(job.state).append('|')
            .append(job.reason).append('|').append(job.waitStatus).append('|').append(job.name).append('\n');
      }
    }
    for (String array : emptiedArrays(asked)) {
      out.append(array).append('|').append(array).append("|CANCELLED|None|0|run\n");
    }
    if (out.length() == 0) {
      return new Result(1, "", "slurm_load_jobs error: Invalid job id specified\n", false);
    }
    return Result.exited(0, out.toString());
  }

  private Result sacct(List<String> argv) {
    Set<String> asked = ids(argv);
    StringBuilder out = new StringBuilder();
    for (Job job : jobs.values()) {
      if (job.inSacct && (asked.contains(job.id) || asked.contains(SlurmJobId.of(job.id).queryId()))) {
        SlurmExit exit = SlurmExit.fromWaitStatus(job.waitStatus);
        SlurmState state = SlurmState.parse(job.state);
        String start = job.start != null ? job.start : state == SlurmState.PENDING ? "Unknown" : "2026-11-29T10:00:05";
        String end = job.end != null ? job.end : state.isTerminal() ? "2026-11-29T10:00:09" : "Unknown";
        String times = "|" + job.submit + "|" + start + "|" + end + "|" + (start.equals("Unknown") ? "None assigned" : job.nodes);
        out.append(job.id).append('|').append(job.id).append('|').append(job.state).append('|').append(exit)
            .append("|00:00:04||256M|").append(job.reason).append("|00:01.500").append(times).append('\n');
        if (!argv.contains("--allocations") && state.isTerminal()) {
          out.append(job.id).append(".batch|").append(job.id).append(".batch|").append(job.state).append('|')
              .append(exit).append("|00:00:04|").append(job.maxRss).append("|||00:01.500").append(times).append('\n');
        }
      }
    }
    for (String array : emptiedArrays(asked)) {
      out.append(array).append('|').append(array)
          .append("|CANCELLED by 0|0:0|00:00:00||256M|None||2026-11-29T10:00:00|Unknown|2026-11-29T10:00:09|None assigned\n");
    }
    return Result.exited(0, out.toString());
  }

  private Result scancel(List<String> argv) {
    Job job = jobs.get(argv.get(1));
    if (job != null && job.id.contains("_") && job.state.equals("PENDING")) {
      job.inSqueue = false;
      job.inSacct = false;
      job.dropped = true;
    } else if (job != null && !SlurmState.parse(job.state).isTerminal()) {
      job.state = "CANCELLED";
      job.reason = "None";
      job.waitStatus = 15;
    }
    whenCancelled(SlurmJobId.of(argv.get(1))).complete(null);
    return Result.exited(0, "");
  }

  /**
   * The arrays asked about whose every element was cancelled while pending: Slurm then keeps only the
   * array's base record, CANCELLED, under the array's own id.
   */
  private Set<String> emptiedArrays(Set<String> asked) {
    Set<String> emptied = new TreeSet<>();
    Set<String> kept = new TreeSet<>();
    for (Job job : jobs.values()) {
      String array = SlurmJobId.of(job.id).queryId();
      if (job.id.contains("_") && asked.contains(array)) {
        (job.dropped ? emptied : kept).add(array);
      }
    }
    emptied.removeAll(kept);
    return emptied;
  }

  private Job job(SlurmJobId id) {
    Job job = jobs.get(id.value());
    if (job == null) {
      throw new IllegalArgumentException("no job " + id);
    }
    return job;
  }

  private static Set<String> ids(List<String> argv) {
    return new TreeSet<>(Arrays.asList(option(argv, "--jobs=").split(",")));
  }

  private static String option(List<String> argv, String prefix) {
    return argv.stream().filter(a -> a.startsWith(prefix)).map(a -> a.substring(prefix.length())).findFirst().orElse("");
  }
}
