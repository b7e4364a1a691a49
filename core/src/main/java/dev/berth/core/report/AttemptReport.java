package dev.berth.core.report;

import dev.berth.core.lifecycle.Attempt;
import java.time.Instant;

/**
 * One attempt as reported.
 *
 * @param number 1-based
 * @param startedAt when its process started
 * @param finishedAt when it ended, or null while running
 * @param exitCode exit status, or null when the process never ran or still runs
 * @param device {@code "cpu"} or a GPU id
 * @param pid process id, or -1
 * @param reservedMemoryBytes host memory reserved
 * @param reservedGpuMemoryBytes GPU memory reserved
 * @param reservedCpus cores reserved
 * @param outcome how it ended (an {@link dev.berth.core.lifecycle.Outcome} name), or {@code RUNNING}
 * @param error what went wrong, or null
 */
public record AttemptReport(
    int number,
    Instant startedAt,
    Instant finishedAt,
    Integer exitCode,
    String device,
    long pid,
    long reservedMemoryBytes,
    long reservedGpuMemoryBytes,
    double reservedCpus,
    String outcome,
    String error) {

  /** The report of a folded attempt. */
  public static AttemptReport of(Attempt a) {
    return new AttemptReport(
        a.number(),
        a.startedAt(),
        a.end().map(e -> e.at()).orElse(null),
        a.end().map(e -> e.exitCode()).orElse(null),
        a.placement().device(),
        a.pid(),
        a.placement().memoryBytes(),
        a.placement().gpuMemoryBytes(),
        a.placement().milliCpus() / 1000.0,
        a.end().map(e -> e.outcome().name()).orElse("RUNNING"),
        a.end().map(e -> e.message()).orElse(null));
  }
}
