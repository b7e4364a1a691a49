package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostLimitsTest {

  private static final long GIB = 1L << 30;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;
  private final ProcStat proc = new ProcStat();

  private final List<String> warnings = new ArrayList<>();

  private HostLimits limits(String text) throws Exception {
    return HostLimits.read(Files.writeString(dir.resolve("limits"), text), warnings::add);
  }

  private SharedReservations joined(HostLimits limits, String user) {
    SharedReservations l = new SharedLedger(new MemoryStore(), "h", proc, TaskProcesses.NONE, limits);
    l.join(new Run(UUID.randomUUID().toString(), "r", "/r", 1000, user, ProcessHandle.current().pid(),
        proc.selfStart()), T0);
    return l;
  }

  private static Claim gpu(String task, int device, long gib, long milliCpus) {
    return new Claim(task, 0, milliCpus, 64_000, List.of(new Share("GPU-" + device, "cuda:" + device, gib * GIB,
        80 * GIB)));
  }

  @Test
  void aMissingFileMeansNoLimits() throws Exception {
    SharedReservations l = joined(HostLimits.read(dir.resolve("limits"), warnings::add), "alice");
    assertThat(l.take(gpu("t1", 0, 70, 32_000), T0)).isEmpty();
  }

  @Test
  void aUserIsHeldToTheirLinesLimitsAndTheRefusalNamesTheLimit() throws Exception {
    HostLimits limits = limits("""
        # per-user limits of this host
        alice max-gpus=1 max-gpu-memory=40GiB   # one device at most
        *     max-cores=4
        """);
    SharedReservations alice = joined(limits, "alice");
    assertThat(alice.take(gpu("t1", 0, 30, 0), T0)).isEmpty();

    assertThat(alice.take(gpu("t2", 1, 5, 0), T0)).hasValueSatisfying(why -> assertThat(why)
        .isEqualTo("user alice holds 1 and asks 1, limit 1 [host limits max-gpus]"));
  }

  @Test
  void everyUserWithoutALineIsHeldToTheStarLine() throws Exception {
    HostLimits limits = limits("* max-cores=4\nalice max-gpus=2\n");
    SharedReservations bob = joined(limits, "bob");
    assertThat(bob.take(gpu("t1", 0, 1, 3000), T0)).isEmpty();

    assertThat(bob.take(gpu("t2", 0, 1, 1500), T0)).hasValueSatisfying(why -> assertThat(why)
        .contains("max-cores").contains("limit 4"));
    assertThat(joined(limits, "alice").take(gpu("t3", 0, 1, 8000), T0)).isEmpty();
  }

  @Test
  void aBadLineNamesTheFileTheLineTheFieldAndTheRule() {
    assertThatThrownBy(() -> limits("alice max-gpu=2\n")).hasMessage(
        dir.resolve("limits") + " line 1: max-gpu: not a limit; the limits are max-gpus, max-gpu-memory, max-cores");
    assertThatThrownBy(() -> limits("\nalice max-gpu-memory=lots\n")).hasMessageStartingWith(
        dir.resolve("limits") + " line 2: max-gpu-memory: ");
    assertThatThrownBy(() -> limits("alice max-cores=-1\n")).hasMessage(
        dir.resolve("limits") + " line 1: max-cores: must be 0 or more");
    assertThatThrownBy(() -> limits("alice max-gpus=1\nalice max-cores=2\n")).hasMessage(
        dir.resolve("limits") + " line 2: user alice has a line already");
  }

  @Test
  void aLimitsFileThatGroupOrOthersMayWriteIsIgnoredWithAWarning() throws Exception {
    Path file = Files.writeString(dir.resolve("limits"), "* max-gpus=0\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

    HostLimits limits = HostLimits.read(file, warnings::add);

    assertThat(joined(limits, "alice").take(gpu("t1", 0, 10, 0), T0)).isEmpty();
    assertThat(warnings).singleElement().asString().contains(file.toString()).contains("is ignored")
        .contains("mode 666");
  }

  @Test
  void aLimitsFileOwnedByAUserWhoIsNeitherRootNorTheFoldersOwnerIsIgnoredWithAWarning() throws Exception {
    assumeTrue(proc.uid(ProcessHandle.current().pid()) == 0, "needs root to give the file to another user");
    Path file = Files.writeString(dir.resolve("limits"), "root max-gpus=banana\n");
    Files.setAttribute(file, "unix:uid", 65534);

    HostLimits limits = HostLimits.read(file, warnings::add);

    assertThat(joined(limits, "root").take(gpu("t1", 0, 10, 0), T0)).isEmpty();
    assertThat(warnings).singleElement().asString().contains("owned by uid 65534");
  }

  @Test
  void aLimitsFileThatIsALinkIsIgnoredWithAWarning() throws Exception {
    Path real = Files.writeString(dir.resolve("elsewhere"), "* max-gpus=0\n");
    Path file = Files.createSymbolicLink(dir.resolve("limits"), real);

    HostLimits limits = HostLimits.read(file, warnings::add);

    assertThat(joined(limits, "alice").take(gpu("t1", 0, 10, 0), T0)).isEmpty();
    assertThat(warnings).singleElement().asString().contains("not a regular file");
  }

  @Test
  void anAdministratorsLimitsFileCountsWithoutAWarning() throws Exception {
    HostLimits limits = limits("* max-gpus=0\n");

    assertThat(joined(limits, "alice").take(gpu("t1", 0, 10, 0), T0)).isPresent();
    assertThat(warnings).isEmpty();
  }
}
