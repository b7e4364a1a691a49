package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Reservation;
import dev.berth.spi.SharedReservations.RunEntry;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two local accounts share the host ledger: each takes part, and one cannot change the other's live
 * entries. The accounts are made by the test, so it runs only as root (and is skipped otherwise).
 */
class TwoUsersTest {

  private static final List<String> USERS = List.of("berth-ledger-a", "berth-ledger-b");
  private static final List<String> CREATED = new ArrayList<>();

  @TempDir static Path dir;
  private static Path classpath;

  @BeforeAll
  static void accounts() throws Exception {
    assumeTrue(new ProcStat().uid(ProcessHandle.current().pid()) == 0, "needs root to make two accounts");
    assumeTrue(Files.isExecutable(Path.of("/usr/sbin/useradd")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
        "needs useradd and setpriv");
    for (String user : USERS) {
      if (run("id", "-u", user) != 0) {
        assertThat(run("useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", user)).isZero();
        CREATED.add(user);
      }
    }
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
    classpath = readableClasspath();
  }

  @AfterAll
  static void removeAccounts() throws Exception {
    for (String user : CREATED) {
      run("userdel", user);
    }
  }

  @Test
  void oneUserCannotChangeAnotherUsersLiveReservationsButTakesPartWithTheirOwn() throws Exception {
    Path varTmp = Files.createDirectories(dir.resolve("var-tmp")); // like /var/tmp: sticky, everyone writes
    assertThat(run("chmod", "1777", varTmp.toString())).isZero();
    Path host = varTmp.resolve("berth-host"); // made by the first user's run
    Process holder = as(USERS.get(0), "hold", host.toString());
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      String joined = out.readLine();
      assertThat(joined).as("the holder joined").startsWith("joined ");
      String victim = joined.substring("joined ".length());

      Process intruder = as(USERS.get(1), "attack", host.toString(), victim);
      String said = new String(intruder.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(intruder.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(said).contains("join with the victim's id: refused").contains("own claim: taken");
      try (SharedReservations ledger = HostLedgers.open(host)) {
        List<RunEntry> live = ledger.runs(false, Instant.now());
        assertThat(live).extracting(RunEntry::user).containsExactly(USERS.get(0));
        assertThat(live.get(0).reservations()).extracting(Reservation::task, Reservation::bytes)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("t1", 10L << 30));
        assertThat(ledger.runs(true, Instant.now())).extracting(RunEntry::user).contains(USERS.get(1));
      }
    } finally {
      holder.getOutputStream().close();
      holder.waitFor(30, TimeUnit.SECONDS);
      holder.destroyForcibly();
    }
    assertThat(Files.getPosixFilePermissions(host.resolve(HostLedgers.FILE)))
        .isEqualTo(PosixFilePermissions.fromString("rw-rw-rw-"));
  }

  private static Process as(String user, String... args) throws IOException {
    List<String> argv = new ArrayList<>(List.of("setpriv", "--reuid=" + user, "--regid=" + user, "--clear-groups",
        "--", Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:+UseSerialGC",
        "-cp", classpath + "/*:" + classpath.resolve("classes"),
        LedgerUser.class.getName()));
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
