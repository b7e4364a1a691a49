package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.RunEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real {@code berth} processes on one simulated 24 GiB device, sharing a host ledger in a folder of
 * the test's own: however they race, they never hold more than the device has together, a task that
 * comes first in the host-wide order gets the next free share, and a run killed with SIGKILL keeps
 * its reservations while its tasks run on, freeing them for the others when they end.
 */
class HostLedgerRaceTest {

  private static final long GIB = 1L << 30;

  @TempDir Path dir;

  private Map<String, String> env() {
    return Map.of(HostLedgers.ENV, dir.resolve("host").toString());
  }

  /** The gate tasks started by {@link #gated} wait for. */
  private Path gate() {
    return dir.resolve("gate");
  }

  /** A command that waits for the {@link #gate()} to open (or the test's folder to go), then sleeps {@code seconds}. */
  private String gated(double seconds) {
    return "[sh, -c, \"while [ -d " + dir + " ] && [ ! -e " + gate() + " ]; do sleep 0.05; done; sleep " + seconds
        + "\"]";
  }

  private static String sleep(double seconds) {
    return "[sleep, \"" + seconds + "\"]";
  }

  private Path spec(String name, int tasks, String command, int priority) throws Exception {
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < tasks; i++) {
      list.append("      - {id: ").append(name).append("-").append(i).append(", priority: ").append(priority)
          .append(", command: ").append(command).append("}\n");
    }
    return Files.writeString(dir.resolve(name + ".yaml"), """
        name: %s
        workdir: %s
        gpus: sim:24GiB
        config:
          scheduler: {default-memory: 1MiB, interval: 200ms}
          remain-limit: {memory: 1MiB, cuda-memory: 0}
          utilization-limit: {cuda-memory: 1.0, cpu: 1.0}
        groups:
          - name: g
            cpus: 0
            gpu-memory: 10GiB
            tasks:
        %s""".formatted(name, dir.resolve(name), list));
  }

  private BerthProcess start(String name, int tasks, String command, int priority) throws Exception {
    return BerthProcess.start(dir, env(), "run", "--no-progress", spec(name, tasks, command, priority).toString());
  }

  /** Waits (up to a minute, looking every 50 ms) until the host's runs satisfy {@code condition}; the moment it did. */
  private Instant awaitRuns(Predicate<List<RunEntry>> condition) throws Exception {
    try (SharedReservations ledger = HostLedgers.open(dir.resolve("host"))) {
      for (int i = 0; i < 1200; i++) {
        Instant now = Instant.now();
        if (condition.test(ledger.runs(false, now))) {
          return now;
        }
        Thread.sleep(50); // waiting on other processes: there is no event to wait for from here
      }
    }
    throw new AssertionError("the runs never got there");
  }

  private static long gpuHolds(List<RunEntry> runs, String name) {
    return runs.stream().filter(r -> r.name().equals(name)).flatMap(r -> r.reservations().stream())
        .filter(h -> !h.key().equals(SharedReservations.HOST)).count();
  }

  private static Optional<RunEntry> run(List<RunEntry> runs, String name) {
    return runs.stream().filter(r -> r.name().equals(name)).findFirst();
  }

  record Attempt(String run, String task, Instant start, Instant end, long bytes) {}

  private List<Attempt> attempts(String run) throws Exception {
    JsonNode report = RunFiles.json(dir.resolve(run).resolve("report.json"));
    List<Attempt> attempts = new ArrayList<>();
    for (JsonNode t : report.get("groups").get(0).get("tasks")) {
      for (JsonNode a : t.get("attempts")) {
        attempts.add(new Attempt(run, t.get("id").asText(), Instant.parse(a.get("startedAt").asText()),
            Instant.parse(a.get("finishedAt").asText()), a.get("reservedGpuMemoryBytes").asLong()));
      }
    }
    return attempts;
  }

  @Test
  void threeRunsNeverHoldMoreThanTheDeviceAndTheHostWideOrderDecidesWhoIsNext() throws Exception {
    // a and b fill the device with tasks that wait for the gate, so c, a JVM started later, queues
    // behind them however long it takes to start; the gate opens once it does
    BerthProcess a = start("a", 5, gated(2), 0);
    BerthProcess b = start("b", 5, gated(2), 0);
    awaitRuns(runs -> gpuHolds(runs, "a") + gpuHolds(runs, "b") == 2);
    BerthProcess c = start("c", 2, sleep(1), 10);
    Instant cWaits = awaitRuns(runs -> run(runs, "c").map(r -> r.progress().waiting() > 0).orElse(false));
    Files.createFile(gate());

    for (BerthProcess p : List.of(a, b, c)) {
      assertThat(p.await(120)).as(p.output()).isZero();
    }

    List<Attempt> all = new ArrayList<>();
    for (String run : List.of("a", "b", "c")) {
      all.addAll(attempts(run));
    }
    assertThat(all).hasSize(12).allSatisfy(x -> assertThat(x.bytes()).isEqualTo(10 * GIB));
    for (Attempt at : all) {
      long held = all.stream().filter(o -> !o.start().isAfter(at.start()) && o.end().isAfter(at.start()))
          .mapToLong(Attempt::bytes).sum();
      assertThat(held).as("held together when %s/%s started", at.run(), at.task()).isLessThanOrEqualTo(24 * GIB);
    }
    Instant firstOfC = all.stream().filter(x -> x.run().equals("c")).map(Attempt::start).min(Instant::compareTo)
        .orElseThrow();
    assertThat(all).filteredOn(x -> !x.run().equals("c") && x.start().isAfter(cWaits))
        .as("tasks of a and b that started after c's priority task waited (%s) start after it: %s", cWaits, all)
        .isNotEmpty()
        .allSatisfy(x -> assertThat(x.start()).isAfterOrEqualTo(firstOfC));
  }

  @Test
  void aRunKilledWithSigkillKeepsItsReservationsWhileItsTasksRunAndFreesThemWithTheLastOfThem() throws Exception {
    BerthProcess holder = start("holder", 2, gated(0), 0);
    awaitRuns(runs -> gpuHolds(runs, "holder") == 2);
    BerthProcess waiter = start("waiter", 1, sleep(0.2), 0);
    awaitRuns(runs -> run(runs, "waiter").map(r -> r.progress().waiting() > 0).orElse(false));

    holder.signal("KILL");
    holder.await(30);
    awaitRuns(runs -> run(runs, "holder").map(r -> r.progress().state().equals("lost, tasks live")).orElse(false)
        && gpuHolds(runs, "holder") == 2);
    Instant opened = Instant.now();
    Files.createFile(gate()); // the killed holder's tasks, which run on, end

    assertThat(waiter.await(60)).as(waiter.output()).isZero();
    Attempt started = attempts("waiter").get(0);
    assertThat(started.start()).as("started once the killed holder's tasks ended").isAfter(opened);
  }
}
