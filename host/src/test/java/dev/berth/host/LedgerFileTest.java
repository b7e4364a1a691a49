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
}
