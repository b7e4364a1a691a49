package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskId;
import dev.berth.host.HostLedgers;
import dev.berth.runtime.control.RunLock;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.testkit.FakeClock;
import dev.berth.testkit.FakeExecutor;
import dev.berth.testkit.FakeGpuProbe;
import dev.berth.testkit.FakeHostProbe;
import dev.berth.testkit.TaskSpecs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local session joins the host ledger of its host folder, shows in it while it runs, and leaves it as it ends. */
class HostLedgerSessionTest {

  @TempDir Path dir;

  private final FakeExecutor executor = new FakeExecutor();

  private SessionOptions.Builder options() {
    RunSpec spec = TaskSpecs.run("shared").workdir(dir.resolve("run").toString())
        .group("g", TaskSpecs.task("a").memoryMiB(16).build()).build();
    return SessionOptions.builder(dir.resolve("run")).spec(spec).clock(new FakeClock())
        .hostProbe(new FakeHostProbe().cpus(16)).gpuProbe(new FakeGpuProbe()).executor(executor)
        .env(name -> name.equals(HostLedgers.ENV) ? dir.resolve("host").toString() : null);
  }

  private List<RunEntry> runs(boolean ended) {
    try (SharedReservations ledger = HostLedgers.open(dir.resolve("host"))) {
      return ledger.runs(ended, Instant.now());
    }
  }

  @Test
  void aSessionIsAHostRunUntilItEnds() throws Exception {
    Seen seen = new Seen();
    try (LocalSession session = LocalSession.open(options().listener(seen).build())) {
      assertThat(runs(false)).extracting(RunEntry::name).containsExactly("shared");
      session.start(failure -> { });
      seen.awaitLaunches("a", 1);
      assertThat(runs(false).get(0).reservations()).extracting(r -> r.task()).contains("a");
      executor.exit(TaskId.of("a"), 0);
      seen.awaitFinished();
    }
    assertThat(runs(false)).isEmpty();
    assertThat(runs(true)).extracting(r -> r.progress().state(), r -> r.progress().done(), r -> r.progress().total())
        .containsExactly(org.assertj.core.groups.Tuple.tuple("succeeded", 1, 1));
  }

  @Test
  void aSessionWithTheHostLedgerOffIsNotSeen() throws Exception {
    try (LocalSession session = LocalSession.open(options().hostLedger(false).build())) {
      assertThat(Files.exists(dir.resolve("host"))).isFalse();
    }
  }

  @Test
  void theBerthInsideASlurmAllocationJoinsNoHostLedgerSinceSlurmAlreadySplitTheNode() throws Exception {
    try (LocalSession session = LocalSession.open(options().insideAllocation(true).build())) {
      assertThat(Files.exists(dir.resolve("host"))).isFalse();
      assertThat(session.spec().tasks()).hasSize(1);
    }
  }

  @Test
  void aBadLimitsFileRefusesTheRunInOneLineAndReleasesTheFolder() throws Exception {
    Files.createDirectories(dir.resolve("host"));
    Files.writeString(dir.resolve("host").resolve("limits"), "alice max-gpus=two\n");

    assertThatThrownBy(() -> LocalSession.open(options().build()))
        .isInstanceOf(SessionException.class)
        .hasMessageContaining(dir.resolve("host").resolve("limits") + " line 1: max-gpus: 'two' is not a number")
        .hasMessageNotContaining("\n");
    assertThat(RunLock.holder(dir.resolve("run"))).isEmpty();
  }
}
