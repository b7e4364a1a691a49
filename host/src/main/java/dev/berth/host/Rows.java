package dev.berth.host;

import dev.berth.spi.SharedReservations.Share;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** The ledger's rows, as both stores keep them. */
final class Rows {

  private Rows() {}

  /**
   * A run that joined; {@code endedAt} is null while it goes on. {@code tasksSince} is when the first
   * of its task processes may have started (clock ticks after boot): its Berth's start, or, for a run
   * that resumed killed runs and adopted their tasks, the earliest of theirs.
   */
  record RunRow(String id, String host, String name, String workdir, long uid, String user, long pid, long pidStart,
      String state, int running, int waiting, int done, int total, Instant startedAt, Instant updatedAt,
      Instant endedAt, long tasksSince) {

    /** A run whose task processes all started after its Berth. */
    RunRow(String id, String host, String name, String workdir, long uid, String user, long pid, long pidStart,
        String state, int running, int waiting, int done, int total, Instant startedAt, Instant updatedAt,
        Instant endedAt) {
      this(id, host, name, workdir, uid, user, pid, pidStart, state, running, waiting, done, total, startedAt,
          updatedAt, endedAt, pidStart);
    }

    boolean live() {
      return endedAt == null;
    }
  }

  /** One share a run's task holds: host memory and cores under {@code host}, or GPU memory on a device. */
  record HoldRow(String run, String task, String key, String label, long bytes, long measured, long milliCpus,
      Instant since) {

    /** What the hold has used by {@code now}: GiB of memory plus cores, times seconds held. */
    double usedBy(Instant now) {
      double seconds = Math.max(0, Duration.between(since, now).toMillis() / 1000.0);
      return seconds * (bytes / (double) (1L << 30) + milliCpus / 1000.0);
    }
  }

  /** A task of a run that waits, since when, and for what. */
  record WaitRow(String run, String task, int priority, Instant since, long milliCpus, long hostMemory,
      long gpuMemory, int gpus, List<Share> devices) {}
}
