package dev.berth.slurm;

import dev.berth.core.lifecycle.ClusterAccounting;
import dev.berth.core.lifecycle.MeasuredUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one sacct answer says about jobs and array elements: each one's own row, or for elements still
 * folded into their array's base record ({@code 3229_[1,4-5%1]}) that record's row; and which job
 * arrays it lists at all. Pure.
 *
 * <p>An array element cancelled while it was pending leaves no record of its own: Slurm drops it from
 * the base record's range, and sacct (like squeue) never lists it again. So an element of an array sacct
 * lists, that sacct has no row for, in its own name or in the range, was cancelled while pending.
 */
final class SacctRecords {

  private static final Pattern FOLDED = Pattern.compile("([0-9]+)_\\[([0-9,\\-]+)(?:%[0-9]+)?\\]");

  private final Map<SlurmJobId, SacctOutput.Row> rows = new HashMap<>();
  private final Set<String> arrays = new HashSet<>();
  /** The largest MaxRSS of each job's steps, -1 for a job with steps but no MaxRSS. */
  private final Map<SlurmJobId, Long> stepPeaks = new HashMap<>();

  private SacctRecords(List<SacctOutput.Row> parsed) {
    for (SacctOutput.Row row : parsed) {
      Optional<SlurmJobId> step = row.stepOf();
      if (step.isPresent()) {
        stepPeaks.merge(step.get(), row.maxRssBytes().orElse(-1), Math::max);
        continue;
      }
      Optional<SlurmJobId> id = row.jobId();
      if (id.isPresent()) {
        rows.put(id.get(), row);
        arrays.add(id.get().queryId());
        continue;
      }
      Matcher folded = FOLDED.matcher(row.id());
      if (folded.matches()) {
        SlurmJobId array = SlurmJobId.of(folded.group(1));
        arrays.add(array.value());
        for (int index : indices(folded.group(2))) {
          rows.putIfAbsent(SlurmJobId.element(array, index), row);
        }
      }
    }
  }

  /** The records in {@link SacctOutput#parse parsed} sacct output. */
  static SacctRecords of(List<SacctOutput.Row> parsed) {
    return new SacctRecords(parsed);
  }

  /** The row that says how {@code job} stands: its own, or its array's base record while it is folded in. */
  Optional<SacctOutput.Row> row(SlurmJobId job) {
    return Optional.ofNullable(rows.get(job));
  }

  /** Whether these records list a step of {@code job}: sacct has caught up with its end and its measurements. */
  boolean hasSteps(SlurmJobId job) {
    return stepPeaks.containsKey(job);
  }

  /**
   * What {@code job} used by Slurm's accounting: the largest MaxRSS of its steps and its own TotalCPU, as
   * exact figures; {@link MeasuredUsage#NONE} when sacct shows neither.
   */
  MeasuredUsage usage(SlurmJobId job) {
    long peak = stepPeaks.getOrDefault(job, -1L);
    OptionalDouble cpu = Optional.ofNullable(rows.get(job)).filter(r -> r.jobId().equals(Optional.of(job)))
        .map(SacctOutput.Row::cpuSeconds).orElse(OptionalDouble.empty());
    if (peak < 0 && cpu.isEmpty()) {
      return MeasuredUsage.NONE;
    }
    return new MeasuredUsage(peak < 0 ? OptionalLong.empty() : OptionalLong.of(peak), cpu, OptionalLong.empty(), true);
  }

  /**
   * What the accounting recorded of {@code job}: its row's times, nodes, state and exit code (for an
   * element still folded into its array's base record, that record's); empty when these records have no
   * row for it.
   */
  Optional<ClusterAccounting> accounting(SlurmJobId job) {
    return row(job).map(r -> new ClusterAccounting(job.value(), r.stateText().strip(), r.submittedAt(),
        r.startedAt(), r.endedAt(), r.elapsed(), r.nodes(), r.exit().toString()));
  }

  /** Whether {@code job} is an element of an array these records list, without a record of its own or in the range. */
  boolean droppedWhilePending(SlurmJobId job) {
    return job.isArrayElement() && arrays.contains(job.queryId()) && !rows.containsKey(job);
  }

  /** The indices of a range such as {@code 1,4-5}. */
  static List<Integer> indices(String ranges) {
    List<Integer> indices = new ArrayList<>();
    for (String part : ranges.split(",")) {
      if (part.isEmpty()) {
        continue;
      }
      int dash = part.indexOf('-');
      int first = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
      int last = dash < 0 ? first : Integer.parseInt(part.substring(dash + 1));
      for (int i = first; i <= last; i++) {
        indices.add(i);
      }
    }
    return indices;
  }
}
