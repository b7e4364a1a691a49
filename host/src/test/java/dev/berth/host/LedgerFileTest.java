package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.spi.SharedReservations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new host ledger file exists only whole: in WAL mode with its tables, however many open it at once. */
class LedgerFileTest {

  @TempDir Path dir;

  @Test
  void runsOpeningANewLedgerAtOnceAllGetItAndItIsWholeFromTheStart() throws Exception {
    Path host = dir.resolve("host");
    Files.createDirectories(host);
    ExecutorService threads = Executors.newFixedThreadPool(6);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<SharedReservations>> opened = new ArrayList<>();
    try {
      for (int i = 0; i < 6; i++) {
        opened.add(threads.submit(() -> {
          go.await();
          return HostLedgers.open(host);
        }));
      }
      go.countDown();
      for (Future<SharedReservations> f : opened) {
        f.get(60, TimeUnit.SECONDS).close();
      }
    } finally {
      threads.shutdownNow();
    }

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + host.resolve(HostLedgers.FILE));
        Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("wal");
    }
    try (Stream<Path> left = Files.list(host)) {
      assertThat(left.map(p -> p.getFileName().toString())).as("nothing made beside it is left")
          .noneMatch(name -> name.endsWith(".new"));
    }
  }

  @Test
  void aLedgerRemovedUnderALiveRunIsMadeAgainWithTheRunAndWhatItHoldsAtItsNextLook() throws Exception {
    Path host = dir.resolve("host");
    java.time.Instant t0 = java.time.Instant.parse("2026-01-01T00:00:00Z");
    SharedReservations.Claim claim = new SharedReservations.Claim("t-1", 0, 0, 8000,
        List.of(new SharedReservations.Share("sim:24GiB#0", "cuda:0", 20L << 30, 24L << 30)));
    SharedReservations.Progress progress = new SharedReservations.Progress("running", 1, 0, 0, 2);
    try (SharedReservations r1 = HostLedgers.open(host)) {
      r1.join(HostLedgers.self("r1", "/runs/r1"), t0);
      assertThat(r1.take(claim, t0)).isEmpty();
      r1.waiting(List.of(new SharedReservations.Demand("t-2", 0, 0, 0, 20L << 30, 1, claim.shares())), t0);
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(host.resolve(HostLedgers.FILE + suffix));
      }

      r1.look(progress, List.of(), t0.plusSeconds(1));

      try (SharedReservations r2 = HostLedgers.open(host)) {
        r2.join(HostLedgers.self("r2", "/runs/r2"), t0.plusSeconds(1));
        assertThat(r2.take(new SharedReservations.Claim("u-1", 0, 0, 8000, claim.shares()), t0.plusSeconds(1)))
            .hasValueSatisfying(why -> assertThat(why).contains("held by run r1"));
        assertThat(r2.runs(false, t0.plusSeconds(1))).extracting(SharedReservations.RunEntry::name)
            .containsExactly("r1", "r2");
      }
    }
  }

  @Test
  void aReaderOfALedgerRemovedAndMadeAgainReadsTheNewOne() throws Exception {
    Path host = dir.resolve("host");
    java.time.Instant t0 = java.time.Instant.parse("2026-01-01T00:00:00Z");
    try (SharedReservations ps = HostLedgers.open(host)) {
      assertThat(ps.runs(false, t0)).isEmpty();
      for (String suffix : List.of("", "-wal", "-shm")) {
        Files.deleteIfExists(host.resolve(HostLedgers.FILE + suffix));
      }
      try (SharedReservations r1 = HostLedgers.open(host)) {
        r1.join(HostLedgers.self("r1", "/runs/r1"), t0);

        assertThat(ps.runs(false, t0)).extracting(SharedReservations.RunEntry::name).containsExactly("r1");
      }
    }
  }
}
