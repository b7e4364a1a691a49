package dev.berth.host;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.spi.SharedReservationsException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A Berth run of another account, for {@link TwoUsersTest}: {@code hold DIR} joins the host ledger,
 * takes 10 GiB and stays until its standard input closes; {@code attack DIR RUN} tries every way the
 * ledger offers to change run RUN's entries, and takes a share of its own.
 */
public final class LedgerUser {

  private LedgerUser() {}

  /** See the class comment. */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[1]);
    Instant now = Instant.now();
    Share share = new Share("sim:24GiB#0", "cuda:0", 10L << 30, 24L << 30);
    if (args[0].equals("hold")) {
      SharedReservations ledger = HostLedgers.open(dir);
      Run run = HostLedgers.self("held", "/runs/held");
      ledger.join(run, now);
      ledger.take(new Claim("t1", 0, 0, 8000, List.of(share)), now);
      System.out.println("joined " + run.id());
      System.out.flush();
      while (System.in.read() >= 0) {
        // stay alive, holding, until the test closes our input
      }
      return;
    }
    String victim = args[2];
    Run me = HostLedgers.self("intruder", "/runs/intruder");
    try (SharedReservations ledger = HostLedgers.open(dir)) {
      try {
        ledger.join(new Run(victim, "intruder", "/runs/intruder", me.uid(), me.user(), me.pid(), me.pidStart()), now);
        System.out.println("join with the victim's id: allowed");
      } catch (SharedReservationsException e) {
        System.out.println("join with the victim's id: refused");
      }
    }
    try (SqliteStore store = SqliteStore.open(dir.resolve(HostLedgers.FILE))) {
      store.transaction(t -> {
        t.removeHolds(victim, "t1", me.uid());
        t.measured(victim, "t1", "sim:24GiB#0", 0, me.uid());
        t.replaceWaits(victim, List.of(), me.uid());
        t.end(victim, me.uid(), "ended by intruder", now);
        return null;
      });
    }
    try (SharedReservations ledger = HostLedgers.open(dir)) {
      ledger.join(me, now);
      System.out.println("own claim: " + ledger.take(new Claim("u1", 0, 0, 8000, List.of(share)), now)
          .orElse("taken"));
      ledger.leave("succeeded", now);
    }
  }
}
