package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Progress;
import dev.berth.spi.SharedReservations.Share;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PsCommandTest {

  private static final long GIB = 1L << 30;

  @TempDir Path dir;
  private String out = "";

  private int ps(String... args) {
    StringWriter o = new StringWriter();
    PsCommand command = new PsCommand(name -> name.equals(HostLedgers.ENV) ? dir.toString() : null);
    int code = SubcommandRunner.run("ps", command, args, 0, new PrintWriter(o, true), new PrintWriter(new StringWriter(), true));
    out = o.toString();
    return code;
  }

  private SharedReservations run(String name) {
    SharedReservations ledger = HostLedgers.open(dir);
    ledger.join(HostLedgers.self(name, "/runs/" + name), Instant.now());
    return ledger;
  }

  @Test
  void aHostWithoutRunsSaysSo() {
    assertThat(ps()).isZero();
    assertThat(out).isEqualTo("no Berth runs on this host\n");
  }

  @Test
  void everyLiveRunIsListedWithItsProgressAndWhatItHoldsPerDevice() {
    try (SharedReservations a = run("sweep-a"); SharedReservations b = run("sweep-b")) {
      a.take(new Claim("t1", 0, 2000, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", 10 * GIB, 24 * GIB))),
          Instant.now());
      a.look(new Progress("running", 1, 3, 2, 6), List.of(), Instant.now());
      b.leave("succeeded", Instant.now());

      assertThat(ps()).isZero();
      assertThat(out).startsWith("USER").contains("sweep-a").doesNotContain("sweep-b")
          .contains("running  2/6   1        3        cuda:0 10 GiB, host 2 cpus  /runs/sweep-a");

      assertThat(ps("-a", "--json")).isZero();
    }
    JsonNode json = read(out);
    assertThat(json).hasSize(2);
    assertThat(json.get(0).get("run").asText()).isEqualTo("sweep-a");
    assertThat(json.get(0).get("reservations").get(0).get("device").asText()).isIn("cuda:0", "host");
    assertThat(json.get(1).get("state").asText()).isEqualTo("succeeded");
    assertThat(json.get(1).get("endedAt").isNull()).isFalse();
  }

  @Test
  void aRunWhoseTasksWaitSaysWhyBelowItsLineAndInItsJson() throws Exception {
    Path workdir = dir.resolve("gated");
    Files.createDirectories(workdir.resolve(".berth"));
    Files.writeString(workdir.resolve(".berth/waiting.json"), "{\"holdingBack\": \"waiting for cpu-utilization on"
        + " host: other processes keep the CPUs 93.0% busy, limit 80.0% [utilization-limit.cpu]\", \"tasks\": {}}");
    try (SharedReservations a = HostLedgers.open(dir)) {
      a.join(HostLedgers.self("gated", workdir.toString()), Instant.now());
      a.look(new Progress("waiting", 0, 3, 2, 5), List.of(), Instant.now());

      assertThat(ps()).isZero();
      assertThat(out.lines()).contains("  why: waiting for cpu-utilization on host: other processes keep the CPUs"
          + " 93.0% busy, limit 80.0% [utilization-limit.cpu]");

      assertThat(ps("--json")).isZero();
      assertThat(read(out).get(0).get("waitingFor").asText()).startsWith("waiting for cpu-utilization on host");
    }
  }

  @Test
  void aRunWhoseReasonCannotBeReadFromHereSaysWhereToAsk() throws Exception {
    Path workdir = dir.resolve("elsewhere");
    Files.createDirectories(workdir.resolve(".berth/waiting.json")); // not a file: unreadable as one
    try (SharedReservations a = HostLedgers.open(dir)) {
      a.join(HostLedgers.self("elsewhere", workdir.toString()), Instant.now());
      a.look(new Progress("waiting", 0, 1, 0, 1), List.of(), Instant.now());

      assertThat(ps()).isZero();
    }
    assertThat(out).contains("  why: unknown here (" + workdir.resolve(".berth/waiting.json"))
        .contains("berth status " + workdir);
  }

  private static JsonNode read(String text) {
    try {
      return new ObjectMapper().readTree(text);
    } catch (Exception e) {
      throw new AssertionError(text, e);
    }
  }
}
