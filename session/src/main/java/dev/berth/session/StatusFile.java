package dev.berth.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.scheduling.Decisions;
import dev.berth.core.scheduling.Waiting;
import dev.berth.os.AtomicFiles;
import dev.berth.runtime.engine.RunListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Keeps {@code .berth/waiting.json} up to date for {@code berth status} and {@code berth ps}: why
 * each waiting task is not placed and what holds the run back, as the latest decision pass said, and how the run keeps its task processes together. Written at most twice a second on its own thread,
 * so the engine never waits for it.
 */
public final class StatusFile implements RunListener, AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String HOLDING_BACK = "holdingBack";

  private final Path file;
  private final AtomicReference<Decisions> latest = new AtomicReference<>();
  private volatile String containment;
  private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "berth-status");
    t.setDaemon(true);
    return t;
  });

  StatusFile(Path runDir) {
    this.file = of(runDir);
    writer.scheduleWithFixedDelay(this::write, 500, 500, TimeUnit.MILLISECONDS);
  }

  /** The file's location in a run folder. */
  public static Path of(Path runDir) {
    return runDir.resolve(".berth").resolve("waiting.json");
  }

  /**
   * What the run's latest pass said about its waiting tasks.
   *
   * @param holdingBack what held its ready tasks back, in the words of {@link
   *     Decisions#describeHoldingBack}, when something did
   * @param tasks why each task that waited was not placed, by task id, in the words of {@link
   *     Waiting#describe}
   */
  public record Waits(Optional<String> holdingBack, Map<String, String> tasks) {

    /** Nothing said: the run has written no such file. */
    public static final Waits NONE = new Waits(Optional.empty(), Map.of());

    /** Copies the map. */
    public Waits {
      tasks = Map.copyOf(tasks);
    }

    /** Why task {@code id} waits: its own reason, else what held the run's ready tasks back. */
    public Optional<String> why(String id) {
      return Optional.ofNullable(tasks.get(id)).or(() -> holdingBack);
    }
  }

  /**
   * What held the run's ready tasks back at its latest pass, in the words of {@link
   * Decisions#describeHoldingBack}; empty when nothing did or the run has written no such file.
   *
   * @throws IOException when the file is there but cannot be read or parsed
   */
  public static Optional<String> holdingBack(Path runDir) throws IOException {
    return read(runDir).flatMap(root -> Optional.ofNullable(root.path(HOLDING_BACK).textValue()));
  }

  /**
   * What the run's latest pass said about its waiting tasks, read from one version of the file;
   * {@link Waits#NONE} when the run has written no such file.
   *
   * @throws IOException when the file is there but cannot be read or parsed
   */
  public static Waits waits(Path runDir) throws IOException {
    Optional<JsonNode> root = read(runDir);
    if (root.isEmpty()) {
      return Waits.NONE;
    }
    Map<String, String> why = new TreeMap<>();
    root.get().path("tasks").fields().forEachRemaining(f -> why.put(f.getKey(), f.getValue().asText()));
    return new Waits(Optional.ofNullable(root.get().path(HOLDING_BACK).textValue()), why);
  }

  private static Optional<JsonNode> read(Path runDir) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(of(runDir));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(JSON.readTree(bytes));
  }

  /** Says, from the next write on, how the run's task processes are kept together ({@code cgroup v1 ...}). */
  void containment(String describe) {
    containment = describe;
  }

  /** Keeps the latest decisions for the next write. */
  @Override
  public void decided(Decisions decisions) {
    latest.set(decisions);
  }

  /** Stops the writer thread, waiting for it to end, and writes the latest decisions. */
  @Override
  public void close() {
    writer.shutdownNow();
    try {
      writer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    write();
  }

  private void write() {
    Decisions d = latest.getAndSet(null);
    if (d == null) {
      return;
    }
    ObjectNode root = JSON.createObjectNode();
    if (containment != null) {
      root.put("containment", containment);
    }
    d.blockedBy().ifPresent(r -> root.put("blockedBy", r.describe()).put("blockedCount", d.blockedCount()));
    d.describeHoldingBack().ifPresent(text -> root.put(HOLDING_BACK, text));
    ObjectNode tasks = root.putObject("tasks");
    for (Waiting w : d.waiting()) {
      tasks.put(w.task().value(), w.describe());
    }
    try {
      AtomicFiles.write(file, JSON.writeValueAsBytes(root));
    } catch (IOException e) {
      // status is a convenience; the run goes on without it
    }
  }
}
