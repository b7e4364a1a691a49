package dev.berth.slurm;

import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The current Slurm states of given jobs, for a status display: one squeue call for all of them, and
 * one sacct call for those squeue no longer lists (finished longer ago than the cluster's
 * {@code MinJobAge}). The parsing is pure; {@link #states(CommandRunner, Collection)} runs the commands.
 */
public final class SlurmJobs {

  /** How long each of the two commands may take by default. */
  public static final Duration TIMEOUT = Duration.ofSeconds(60);

  private SlurmJobs() {}

  /** {@link #states(CommandRunner, Collection, Duration)} with the default {@link #TIMEOUT}. */
  public static SortedMap<String, String> states(CommandRunner runner, Collection<String> ids) throws IOException {
    return states(runner, ids, TIMEOUT);
  }

  /**
   * The state of each job, e.g. {@code "23" -> "RUNNING"}, {@code "24_1" -> "COMPLETED"}, as
   * {@link SlurmState} names ({@code UNKNOWN} for a state this version does not know). Jobs neither
   * squeue nor sacct knows are left out; so are all jobs squeue does not list when sacct cannot run (a
   * cluster without accounting).
   *
   * @param ids job ids such as {@code 23} or {@code 23_1}
   * @throws IOException when squeue cannot run, times out or fails for another reason than knowing none of the ids
   * @throws IllegalArgumentException when an id is not a Slurm job id
   */
  public static SortedMap<String, String> states(CommandRunner runner, Collection<String> ids, Duration timeout)
      throws IOException {
    List<SlurmJobId> jobs = ids.stream().map(SlurmJobId::of).distinct().toList();
    if (jobs.isEmpty()) {
      return Collections.emptySortedMap();
    }
    CommandRunner.Result squeue = runner.run(SqueueOutput.command(queryIds(jobs)), timeout);
    SortedMap<String, String> states = new TreeMap<>();
    if (squeue.succeeded()) {
      states.putAll(fromSqueue(squeue.stdout(), ids));
    } else if (!SqueueOutput.knowsNone(squeue)) {
      throw new IOException(squeue.timedOut() ? "squeue did not answer within " + timeout.toMillis() + " ms"
          : "squeue exited with " + squeue.exitCode() + ": " + squeue.stderr().strip());
    }
    List<SlurmJobId> missing = jobs.stream().filter(j -> !states.containsKey(j.value())).toList();
    if (!missing.isEmpty()) {
      try {
        CommandRunner.Result sacct = runner.run(SacctOutput.command(queryIds(missing)), timeout);
        if (sacct.succeeded()) {
          fromSacct(sacct.stdout(), missing.stream().map(SlurmJobId::value).toList()).forEach(states::putIfAbsent);
        }
      } catch (IOException noAccounting) {
        // without sacct those jobs stay unknown
      }
    }
    return Collections.unmodifiableSortedMap(states);
  }

  /** The states of {@code ids} in the output of {@link SqueueOutput#command}; ids it does not list are left out. */
  public static SortedMap<String, String> fromSqueue(String stdout, Collection<String> ids) {
    SortedMap<String, String> states = new TreeMap<>();
    for (SqueueOutput.Row row : SqueueOutput.parse(stdout)) {
      if (ids.contains(row.id().value())) {
        states.put(row.id().value(), row.state().name());
      }
    }
    return states;
  }

  /**
   * The states of {@code ids} in the output of {@link SacctOutput#command}: an element still folded into
   * its array's base record has that record's state, and one cancelled while pending (no record of its
   * own while sacct lists its array) is {@code CANCELLED}; ids it does not list are left out.
   */
  public static SortedMap<String, String> fromSacct(String stdout, Collection<String> ids) {
    SacctRecords records = SacctRecords.of(SacctOutput.parse(stdout));
    SortedMap<String, String> states = new TreeMap<>();
    for (String id : ids) {
      SlurmJobId job = SlurmJobId.of(id);
      records.row(job).ifPresent(row -> states.put(id, row.state().name()));
      if (records.droppedWhilePending(job)) {
        states.put(id, SlurmState.CANCELLED.name());
      }
    }
    return states;
  }

  private static TreeSet<String> queryIds(List<SlurmJobId> jobs) {
    TreeSet<String> query = new TreeSet<>();
    jobs.forEach(j -> query.add(j.queryId()));
    return query;
  }
}
