package dev.berth.session;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.RunEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The Berth runs on this host as the host ledger lists them, whoever started them: what
 * {@code berth ps} prints and the dashboard shows, in one JSON shape.
 */
public final class HostRuns {

  private static final ObjectMapper JSON = new ObjectMapper();

  private HostRuns() {}

  /**
   * The host folder whose ledger every Berth run on this machine shares: {@code BERTH_HOST_DIR} in
   * {@code env}, or the machine's default.
   *
   * @throws IllegalArgumentException when {@code BERTH_HOST_DIR} is not a usable path
   */
  public static Path folder(UnaryOperator<String> env) {
    return HostLedgers.directory(env);
  }

  /**
   * The runs in the host ledger in {@code dir}: the live ones, and with {@code all} those that ended
   * in the last day; none when no ledger is there yet.
   *
   * @throws dev.berth.spi.SharedReservationsException when the ledger cannot be read
   */
  public static List<RunEntry> read(Path dir, boolean all, Instant now) {
    Optional<SharedReservations> ledger = HostLedgers.find(dir);
    if (ledger.isEmpty()) {
      return List.of();
    }
    try (SharedReservations l = ledger.get()) {
      return l.runs(all, now);
    }
  }

  /**
   * Why a live run's ready tasks wait, as its latest decision pass said ({@link StatusFile#holdingBack}),
   * or why that cannot be told from here (its folder is another user's, say); empty when none waits
   * or its pass named nothing.
   */
  public static Optional<String> whyWaiting(RunEntry r) {
    if (r.endedAt().isPresent() || r.progress().waiting() == 0) {
      return Optional.empty();
    }
    try {
      return StatusFile.holdingBack(Path.of(r.workdir()));
    } catch (IOException | RuntimeException e) {
      return Optional.of("unknown here (" + StatusFile.of(Path.of(r.workdir())) + ": " + e.getMessage()
          + "); berth status " + r.workdir() + " as " + r.user() + " says");
    }
  }

  /** The runs as a JSON array. */
  public static ArrayNode json(List<RunEntry> runs) {
    ArrayNode array = JSON.createArrayNode();
    runs.forEach(r -> array.add(json(r)));
    return array;
  }

  /** One run as JSON: sizes in bytes and cores in thousandths. */
  public static ObjectNode json(RunEntry r) {
    ObjectNode o = JSON.createObjectNode();
    o.put("run", r.name()).put("id", r.run()).put("user", r.user()).put("pid", r.pid()).put("workdir", r.workdir())
        .put("state", r.progress().state()).put("done", r.progress().done()).put("total", r.progress().total())
        .put("running", r.progress().running()).put("waiting", r.progress().waiting())
        .put("startedAt", r.startedAt().toString());
    o.put("endedAt", r.endedAt().map(Instant::toString).orElse(null));
    ArrayNode holds = o.putArray("reservations");
    for (Reservation h : r.reservations()) {
      holds.addObject().put("task", h.task()).put("device", h.label()).put("memoryBytes", h.bytes())
          .put("measuredBytes", h.measuredBytes()).put("milliCpus", h.milliCpus());
    }
    return o;
  }
}
