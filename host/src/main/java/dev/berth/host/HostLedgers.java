package dev.berth.host;

import dev.berth.spi.SharedReservations;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/** Opens the host ledger every run on this machine shares, or one for a run alone. */
public final class HostLedgers {

  /** The variable that names the host folder instead of {@link #DEFAULT_DIR}. */
  public static final String ENV = "BERTH_HOST_DIR";
  /** The host folder unless {@link #ENV} names another. */
  public static final Path DEFAULT_DIR = Path.of("/var/tmp/berth-host");
  /** The ledger's file in the host folder. */
  public static final String FILE = "ledger.db";

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
   * files), with the per-user limits of its {@link HostLimits#FILE} file.
   *
   * @throws SharedReservationsException when the folder or the ledger cannot be made or opened
   * @throws IllegalArgumentException when the limits file is not valid, naming its line and field
   */
  public static SharedReservations open(Path dir) {
    return open(dir, PROC, new ProcTasks());
  }

  /**
   * The ledger in {@code dir}, as {@link #open(Path)}, telling a live run from a dead one by
   * {@code liveness} and whether a dead run's tasks live on by {@code tasks}: for a stand-in of this
   * machine's processes.
   */
  public static SharedReservations open(Path dir, ProcessLiveness liveness, TaskProcesses tasks) {
    Path file = dir.resolve(FILE);
    try {
      makeFolder(dir);
      SqliteStore.createIfMissing(file);
      HostLimits limits = HostLimits.read(dir.resolve(HostLimits.FILE), System.err::println);
      return new SharedLedger(SqliteStore.open(file), hostName(), liveness, tasks, limits);
    } catch (IOException e) {
      throw new SharedReservationsException(file + ": the host ledger cannot be made: " + e.getMessage(), e);
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
    if (!Files.isRegularFile(dir.resolve(FILE))) {
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

  /** This process taking part as a run: a new id, this JVM's pid, start time, uid and user. */
  public static SharedReservations.Run self(String name, String workdir) {
    long pid = ProcessHandle.current().pid();
    return new SharedReservations.Run(UUID.randomUUID().toString(), name, workdir, PROC.uid(pid),
        System.getProperty("user.name", "unknown"), pid, PROC.selfStart());
  }

  private static String hostName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
