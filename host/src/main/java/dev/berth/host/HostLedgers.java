package dev.berth.host;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** Opens the host ledger every run on this machine shares, or one for a run alone. */
public final class HostLedgers {

  /** The variable that names the host folder instead of {@link #DEFAULT_DIR}. */
  public static final String ENV = "BERTH_HOST_DIR";
  /** The host folder unless {@link #ENV} names another. */
  public static final Path DEFAULT_DIR = Path.of("/var/tmp/berth-host");
  /**
   * The single ledger file every user wrote in earlier releases: no longer read (anyone could change
   * it), and only looked at to warn while runs of such a release may still use it.
   */
  public static final String OLD_FILE = "ledger.db";

  private static final ProcStat PROC = new ProcStat();

  private HostLedgers() {}

  /** The host folder: {@code $BERTH_HOST_DIR}, or {@link #DEFAULT_DIR}. */
  public static Path directory(UnaryOperator<String> env) {
    String dir = env.apply(ENV);
    return dir == null || dir.isBlank() ? DEFAULT_DIR : Path.of(dir);
  }

  /**
   * The ledger shared by every Berth run on this host, in {@code dir} (created sticky and
   * world-writable, like {@code /tmp}, so every local user takes part and none can remove another's
   * files), with the per-user limits of its {@link HostLimits#FILE} file; warnings (a file that does
   * not count, an earlier release's ledger) go to standard error.
   *
   * @throws SharedReservationsException when the folder or the ledger cannot be made or opened
   * @throws IllegalArgumentException when the limits file is not valid, naming its line and field
   */
  public static SharedReservations open(Path dir) {
    return open(dir, System.err::println);
  }

  /**
   * The ledger in {@code dir}, as {@link #open(Path)}, saying to {@code warn}, one line each, what in
   * the host folder does not count and why.
   */
  public static SharedReservations open(Path dir, Consumer<String> warn) {
    return open(dir, PROC, new ProcTasks(), warn);
  }

  /**
   * The ledger in {@code dir}, as {@link #open(Path)}, telling a live run from a dead one by
   * {@code liveness} and whether a dead run's tasks live on by {@code tasks}: for a stand-in of this
   * machine's processes and users. Its runs may be of any uid, each user's file written by this
   * process and counted as the user's it is named for: no file's owner is checked, so it is for
   * simulations alone.
   */
  public static SharedReservations open(Path dir, ProcessLiveness liveness, TaskProcesses tasks) {
    return open(dir, liveness, tasks, null, FileOwners.NAMED, System.err::println);
  }

  private static SharedReservations open(Path dir, ProcessLiveness liveness, TaskProcesses tasks,
      Consumer<String> warn) {
    return open(dir, liveness, tasks, PROC.uid(ProcessHandle.current().pid()), FileOwners.SYSTEM, warn);
  }

  private static SharedReservations open(Path dir, ProcessLiveness liveness, TaskProcesses tasks, Long writer,
      FileOwners owners, Consumer<String> warn) {
    try {
      makeFolder(dir);
      warnIfOpen(dir, warn);
      warnIfOld(dir.resolve(OLD_FILE), warn);
      HostLimits limits = HostLimits.read(dir.resolve(HostLimits.FILE), warn);
      FileStore store = new FileStore(dir, writer, owners, warn);
      store.transaction(t -> null); // this user's file is read now: one that cannot be used stops the run before it starts
      return new SharedLedger(store, hostName(), liveness, tasks, limits);
    } catch (IOException e) {
      throw new SharedReservationsException(dir + ": the host ledger cannot be made: " + e.getMessage(), e);
    }
  }

  /** One user's ledger file in the host folder {@code dir}: that user's runs, holds, waits and usage. */
  public static Path file(Path dir, long uid) {
    return FileStore.fileOf(dir, uid);
  }

  /** Warns when other users may remove or replace anyone's files in the host folder. */
  private static void warnIfOpen(Path dir, Consumer<String> warn) throws IOException {
    int mode = (Integer) Files.getAttribute(dir, "unix:mode");
    if ((mode & 0022) != 0 && (mode & 01000) == 0) {
      warn.accept("berth: " + dir + " may be written by other users and is not sticky (mode "
          + Integer.toOctalString(mode & 07777) + "): any of them may remove or replace every user's ledger file;"
          + " chmod 1777 it");
    }
  }

  /** Warns while an earlier release's ledger beside the new files was written in the last day. */
  private static void warnIfOld(Path old, Consumer<String> warn) throws IOException {
    try {
      Instant changed = Files.getLastModifiedTime(old).toInstant();
      if (changed.isAfter(Instant.now().minus(SharedLedger.ENDED_KEPT))) {
        warn.accept("berth: " + old + " is the host ledger of an earlier Berth release, which this one no longer"
            + " reads: runs of that release and of this one on this host do not see what the others hold;"
            + " remove it once the earlier release's runs have ended");
      }
    } catch (NoSuchFileException e) {
      // none: nothing to warn of
    }
  }

  /** Makes the host folder, sticky and world-writable, when there is none. */
  static void makeFolder(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.createDirectories(dir);
      // The sticky bit has no Java API; chmod is run as an argument vector.
      try {
        new ProcessBuilder("chmod", "1777", dir.toString()).inheritIO().start().waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SharedReservationsException(dir + ": interrupted while making the host folder", e);
      }
    }
  }

  /**
   * The host ledger in {@code dir} when one was ever made there, for commands that only read it
   * ({@code berth ps}, {@code berth devices}); empty when no run ever took part.
   */
  public static java.util.Optional<SharedReservations> find(Path dir) {
    if (!FileStore.anyIn(dir)) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(open(dir));
  }

  /** A ledger for a run that is alone on its host ({@code --host-ledger off}): nobody else sees it. */
  public static SharedReservations alone() {
    return new SharedLedger(new MemoryStore(), hostName(), PROC, TaskProcesses.NONE, HostLimits.NONE);
  }

  /**
   * Ledgers that share one set of rows in memory, as runs share the host's file: each call gives
   * another run's ledger. For tests of several runs in one JVM.
   */
  public static Supplier<SharedReservations> sharedInMemory() {
    MemoryStore store = new MemoryStore();
    return () -> new SharedLedger(store, hostName(), PROC, new ProcTasks(), HostLimits.NONE);
  }

  /**
   * This process taking part as a run: a new id, this JVM's pid, start time, uid and user, the user
   * as the system names the process's owner (the name the host's limits and ledger files know it by,
   * which no setting of the process changes).
   */
  public static SharedReservations.Run self(String name, String workdir) {
    long pid = ProcessHandle.current().pid();
    return new SharedReservations.Run(UUID.randomUUID().toString(), name, workdir, PROC.uid(pid), userName(pid), pid,
        PROC.selfStart());
  }

  private static String userName(long pid) {
    try {
      return Files.getOwner(Path.of("/proc", Long.toString(pid))).getName();
    } catch (IOException | UnsupportedOperationException e) {
      return System.getProperty("user.name", "unknown");
    }
  }

  private static String hostName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
