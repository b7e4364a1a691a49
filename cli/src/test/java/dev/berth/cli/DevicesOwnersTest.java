package dev.berth.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.host.HostLedgers;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.testkit.FakeGpuProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code berth devices} names what every Berth run on the host reserved, and who runs each compute process. */
class DevicesOwnersTest {

  private static final long GIB = 1L << 30;

  @TempDir Path dir;

  private String devices(FakeGpuProbe probe, String... args) {
    StringWriter o = new StringWriter();
    DevicesCommand command = new DevicesCommand(s -> probe, name -> name.equals(HostLedgers.ENV) ? dir.toString() : null);
    assertThat(SubcommandRunner.run("devices", command, args, 0, new PrintWriter(o, true),
        new PrintWriter(new StringWriter(), true))).isZero();
    return o.toString();
  }

  @Test
  void aTaskProcessIsNamedByItsRunAndAnyOtherProcessIsForeignWithItsUser() throws Exception {
    Process task = new ProcessBuilder("sleep", "30").start();
    try (SharedReservations run = HostLedgers.open(dir)) {
      run.join(HostLedgers.self("sweep-a", "/runs/a"), Instant.now());
      run.take(new Claim("t1", 0, 0, 8000, List.of(new Share("GPU-FAKE-0", "cuda:0", 10 * GIB, 16 * GIB))), Instant.now());
      String user = System.getProperty("user.name");
      FakeGpuProbe probe = new FakeGpuProbe().device(0, 16).used(0, 3 * GIB)
          .process(0, task.pid(), 2 * GIB).process(0, 1, GIB);

      String table = devices(probe);
      String json = devices(probe, "--json");

      assertThat(table).contains("10 GiB")
          .contains(task.pid() + " " + user + " (2 GiB, run sweep-a)")
          .contains("1 root (1 GiB, not Berth)");
      assertThat(json).contains("\"berthReservedBytes\": " + 10 * GIB)
          .contains("\"pid\": " + task.pid() + ", \"memoryBytes\": " + 2 * GIB + ", \"user\": \"" + user
              + "\", \"berthRun\": \"sweep-a\"")
          .contains("\"pid\": 1, \"memoryBytes\": " + GIB + ", \"user\": \"root\", \"berthRun\": null");
    } finally {
      task.destroyForcibly().waitFor();
    }
  }
}
