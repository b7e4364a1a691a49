package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.RunEntry;
import dev.berth.spi.SharedReservations.Share;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two local accounts share the host ledger: root, and {@code nobody}, who takes part with runs of
 * its own but can neither free nor fake root's holds nor change the host's limits. Switching to
 * {@code nobody} needs root, so the test runs only as root (and is skipped otherwise).
 */
class TwoUsersTest {

  private static final long NOBODY = 65534;
  private static final long GIB = 1L << 30;

  @TempDir static Path dir;
  private static Path classpath;
  private final List<String> warnings = new ArrayList<>();

  @BeforeAll
  static void accounts() throws Exception {
    assumeTrue(new ProcStat().uid(ProcessHandle.current().pid()) == 0, "needs root to run as another user");
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv");
    assumeTrue(run("id", "-u", "nobody") == 0, "needs the account nobody");
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    classpath = readableClasspath();
  }

  @Test
  void nobodyCanNeitherFreeNorFakeRootsHoldsNorChangeTheLimitsButTakesPartWithItsOwn() throws Exception {
    Path host = stickyFolder("holds").resolve("berth-host"); // made by root's run
    Process holder = java(List.of(), "hold", host.toString());
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      String joined = out.readLine();
      assertThat(joined).as("the holder joined").startsWith("joined ");
      String victim = joined.substring("joined ".length());
      Path limits = Files.writeString(host.resolve(HostLimits.FILE), "root max-gpu-memory=20GiB\n");
      Files.setPosixFilePermissions(limits, PosixFilePermissions.fromString("rw-r--r--"));

      Process intruder = java(asNobody(), "attack", host.toString(), victim, "0");
      String said = new String(intruder.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(intruder.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(said.lines()).contains("join with the victim's id: refused",
          "write the victim's file: refused",
          "remove the victim's file: refused",
          "remove the victim's file's second copy: refused",
          "rename over the victim's file: refused",
          "a store that writes as the victim: refused",
          "plant limits: refused",
          "own claim: taken");
      try (SharedReservations ledger = HostLedgers.open(host, warnings::add)) {
        List<RunEntry> live = ledger.runs(false, Instant.now());
        assertThat(live).extracting(RunEntry::user).containsExactly("root");
        assertThat(live.get(0).reservations()).extracting(Reservation::task, Reservation::bytes)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("t1", 10 * GIB));
        assertThat(ledger.runs(true, Instant.now())).extracting(RunEntry::user).containsOnly("root", "nobody");
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("user-4242.ledger is ignored")
            .contains("owned by uid " + NOBODY));

        ledger.join(HostLedgers.self("second", "/runs/second"), Instant.now());
        assertThat(ledger.take(gpu("s1", 15), Instant.now())).as("root's limits, root's 10 GiB held")
            .hasValueSatisfying(why -> assertThat(why).contains("[host limits max-gpu-memory]"));
        assertThat(ledger.take(gpu("s2", 10), Instant.now())).as("what the device has left").isEmpty();
        ledger.leave("succeeded", Instant.now());
      }
    } finally {
      holder.getOutputStream().close();
      holder.waitFor(30, TimeUnit.SECONDS);
      holder.destroyForcibly();
    }
    Path roots = HostLedgers.file(host, 0);
    assertThat(Files.getPosixFilePermissions(roots)).isEqualTo(PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(Files.getOwner(roots).getName()).isEqualTo("root");
  }

  @Test
  void aLimitsFileNobodyPlantsInTheStickyFolderIsIgnoredWithAWarningAndRootsRunsGoOn() throws Exception {
    Path host = stickyFolder("limits").resolve("berth-host");
    HostLedgers.open(host).close(); // root's run made the folder
    Process plant = new ProcessBuilder(concat(asNobody(), List.of("sh", "-c",
        "printf 'root max-gpus=banana\\n* max-gpus=0\\n' > " + host.resolve(HostLimits.FILE))))
        .redirectErrorStream(true).start();
    assertThat(plant.waitFor(30, TimeUnit.SECONDS) && plant.exitValue() == 0).as("nobody planted a limits file").isTrue();

    try (SharedReservations ledger = HostLedgers.open(host, warnings::add)) {
      ledger.join(HostLedgers.self("r", "/runs/r"), Instant.now());
      assertThat(ledger.take(gpu("t1", 10), Instant.now())).isEmpty();
      ledger.leave("succeeded", Instant.now());
    }
    assertThat(warnings).singleElement().asString().contains(host.resolve(HostLimits.FILE) + " is ignored")
        .contains("owned by uid " + NOBODY);
  }

  private static Claim gpu(String task, long gib) {
    return new Claim(task, 0, 0, 8000, List.of(new Share("sim:24GiB#0", "cuda:0", gib * GIB, 24 * GIB)));
  }

  /** A folder like /var/tmp: sticky, everyone writes. */
  private static Path stickyFolder(String name) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(name));
    assertThat(run("chmod", "1777", folder.toString())).isZero();
    return folder;
  }

  private static List<String> asNobody() {
    return List.of("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "--");
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static Process java(List<String> as, String... args) throws IOException {
    List<String> argv = new ArrayList<>(as);
    argv.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC",
        "-cp", classpath + "/*:" + classpath.resolve("classes"), LedgerUser.class.getName()));
    argv.addAll(List.of(args));
    return new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  /** The test's class path copied where every account may read it (the build's own folders may not be). */
  private static Path readableClasspath() throws IOException {
    Path target = Files.createDirectories(dir.resolve("cp"));
    Path classes = Files.createDirectories(target.resolve("classes"));
    for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.isDirectory(p)) {
        try (Stream<Path> files = Files.walk(p)) {
          for (Path f : files.toList()) {
            Path to = classes.resolve(p.relativize(f).toString());
            if (Files.isDirectory(f)) {
              Files.createDirectories(to);
            } else {
              Files.copy(f, to, StandardCopyOption.REPLACE_EXISTING);
            }
          }
        }
      } else if (Files.isRegularFile(p)) {
        Files.copy(p, target.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path f : all.toList()) {
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(Files.isDirectory(f) ? "rwxr-xr-x"
            : "rw-r--r--"));
      }
    }
    return target;
  }

  private static int run(String... argv) throws IOException, InterruptedException {
    return new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
        .waitFor();
  }
}
