package dev.berth.host;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservations.Claim;
import dev.berth.spi.SharedReservations.Run;
import dev.berth.spi.SharedReservations.Share;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * A Berth run of another account, for {@link TwoUsersTest}: {@code hold DIR} joins the host ledger,
 * takes 10 GiB and stays until its standard input closes; {@code attack DIR RUN UID} tries every way
 * it has to change run RUN's entries, those of the user UID, and the host's limits, then takes a
 * share of its own, saying how each went, one line each.
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
    long victimUid = Long.parseLong(args[3]);
    Run me = HostLedgers.self("intruder", "/runs/intruder");
    try (SharedReservations ledger = HostLedgers.open(dir)) {
      ledger.join(new Run(victim, "intruder", "/runs/intruder", me.uid(), me.user(), me.pid(), me.pidStart()), now);
      say("join with the victim's id", "allowed");
    } catch (SharedReservationsException e) {
      say("join with the victim's id", "refused");
    }
    Path theirs = HostLedgers.file(dir, victimUid);
    attempt("write the victim's file", () -> Files.writeString(theirs, "", StandardOpenOption.TRUNCATE_EXISTING));
    attempt("remove the victim's file", () -> Files.delete(theirs));
    attempt("remove the victim's file's second copy", () -> Files.delete(FileStore.secondOf(dir, victimUid)));
    attempt("rename over the victim's file", () -> Files.move(Files.writeString(dir.resolve("forged"),
        "berth-host-ledger 1 x\n"), theirs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE));
    try {
      new FileStore(dir, victimUid, FileOwners.SYSTEM, System.err::println).transaction(t -> {
        t.removeHolds(victim, "t1", victimUid);
        t.end(victim, victimUid, "ended by intruder", now);
        return null;
      });
      say("a store that writes as the victim", "allowed");
    } catch (SharedReservationsException e) {
      say("a store that writes as the victim", "refused");
    }
    // A file named for another uid, and lines in the intruder's own that name the victim.
    String forged = "berth-host-ledger 1 forged\n"
        + "run\tforged\thost\tforged\t/runs/forged\t1\t1\trunning\t0\t0\t0\t0\t0\t0\t-\t1\n"
        + "hold\tforged\tf1\tsim:24GiB#0\tcuda:0\t" + (14L << 30) + "\t0\t0\t0\n";
    Files.writeString(dir.resolve("user-" + (victimUid + 4242) + ".ledger"), forged);
    attempt("plant limits", () -> Files.writeString(dir.resolve(HostLimits.FILE), "* max-gpus=0\nroot max-gpus=banana\n",
        StandardOpenOption.CREATE_NEW));
    try (SharedReservations ledger = HostLedgers.open(dir)) {
      ledger.join(me, now);
      say("own claim", ledger.take(new Claim("u1", 0, 0, 8000, List.of(share)), now).orElse("taken"));
      ledger.leave("succeeded", now);
    }
  }

  private interface Attempt {
    void run() throws IOException;
  }

  private static void attempt(String what, Attempt a) {
    try {
      a.run();
      say(what, "allowed");
    } catch (IOException e) {
      say(what, "refused");
      System.err.println(what + ": " + e);
    }
  }

  private static void say(String what, String how) {
    System.out.println(what + ": " + how);
    System.out.flush();
  }
}
