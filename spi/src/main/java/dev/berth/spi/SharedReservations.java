package dev.berth.spi;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The host ledger: what every Berth run on this machine holds and waits for, whoever started it, so
 * that two runs never hand out the same free memory and a freed device goes to the next task in one
 * host-wide order rather than to whichever run looks first.
 *
 * <p>A run {@link #join joins} once, then its engine, on its loop thread: {@link #look looks} at
 * what the others hold (publishing its own progress and measured usage), {@link #take takes} a
 * reservation before an attempt's process starts, {@link #release releases} it when the attempt
 * ends, says which of its tasks {@link #waiting wait} and for what, and finally {@link #leave
 * leaves}. Reservations of a run whose process died are reclaimed by whoever looks next, once no
 * process of its tasks lives either; a run
 * never changes another live run's entries.
 *
 * <p>Every method is one transaction; implementations are safe to share between threads and, for
 * the host-wide one, between processes. Failures to reach the ledger are
 * {@link SharedReservationsException}s.
 */
public interface SharedReservations extends AutoCloseable {

  /** The device key of a run's host resources (memory and cores), beside the GPUs' keys. */
  String HOST = "host";

  /**
   * The variable that names, to each attempt of a run that takes part in a ledger, that ledger's
   * {@link #where()}: a ledger made anew after its file was removed finds by it the tasks of its
   * runs that nobody could publish there.
   */
  String LEDGER_VARIABLE = "BERTH_HOST_LEDGER";

  /**
   * Registers this run, replacing what an earlier run with the same id left. A dead run of the same
   * user in the same folder whose task processes live is the run this one resumes: what it held
   * becomes this run's at once, until {@link #adopt} says which of its tasks this run adopted.
   */
  void join(Run run, Instant now);

  /**
   * Takes what the attempts of a resumed run hold, whose processes run already, in one step: each
   * claim replaces what its task held, and none is refused, for a running process uses what it uses
   * whatever the ledger says (the others see the device full and wait). What the run took over for
   * tasks it did not adopt (their processes ended while no Berth watched them) goes back.
   */
  void adopt(List<Claim> claims, Instant now);

  /**
   * Publishes this run's progress and what its attempts were measured to use, reclaims what dead
   * runs held, and returns what the other live runs hold.
   */
  List<Reservation> look(Progress progress, List<Measured> measured, Instant now);

  /**
   * Why, as the last {@link #look} found, the ledger cannot tell all that other runs hold, so that
   * every claim is refused whatever it asks: it was made anew after its file was removed, and runs
   * it does not know yet may hold anything. One line; empty while the ledger can tell.
   */
  Optional<String> untold();

  /**
   * Takes the claim if the shares still fit under each device's limit with what every run holds,
   * no per-user limit of the host forbids it, and no task of another run waits before it in the
   * host-wide order (priority, then the user with less recent usage, then the earlier) for
   * resources that are free now.
   *
   * @return empty when taken; otherwise one line saying why not, naming the run and user in the way
   */
  Optional<String> take(Claim claim, Instant now);

  /** Releases what this run's task holds; nothing happens when it holds nothing. */
  void release(String task, Instant now);

  /**
   * Releases what these tasks of this run hold, as {@link #release} would for each, in one step
   * (a ledger shared through a file: one transaction).
   */
  default void releaseAll(List<String> tasks, Instant now) {
    tasks.forEach(task -> release(task, now));
  }

  /**
   * Releases what these tasks of this run hold, then takes the claims in order, as {@link #releaseAll}
   * and {@link #take} for each would one after the other, in one step: a decision pass that ends
   * some tasks and starts others pays for one.
   *
   * @return for each claim, as {@link #take} says; the releases happen either way
   */
  default List<Optional<String>> releaseAndTakeAll(List<String> released, List<Claim> claims, Instant now) {
    releaseAll(released, now);
    return claims.stream().map(claim -> take(claim, now)).toList();
  }

  /**
   * Releases what these tasks of this run hold on GPUs, keeping what they hold of the host: a
   * two-stage task that stopped training (out of GPU memory, or done) keeps its process but not its
   * device.
   */
  void releaseDevices(List<String> tasks, Instant now);

  /** Replaces this run's waiting demands (a task that keeps waiting keeps its place). */
  void waiting(List<Demand> demands, Instant now);

  /**
   * Releases everything this run holds and marks it ended with this state (for {@code berth ps -a});
   * a second call, or one before joining, does nothing.
   */
  void leave(String state, Instant now);

  /** The runs on this host: the live ones, and with {@code ended} also those that ended recently. */
  List<RunEntry> runs(boolean ended, Instant now);

  /** Where the ledger is, for people: its file, or {@code this run only}. */
  String where();

  /** Closes the connection; the run's entries stay until it {@link #leave leaves} or its process dies. */
  @Override
  void close();

  /**
   * A run taking part.
   *
   * @param id unique on the host for this run's session
   * @param name the run's name
   * @param workdir the run's folder
   * @param uid the account running it
   * @param user that account's name
   * @param pid the process running the engine, whose death frees what the run holds
   * @param pidStart that process's start time (clock ticks after boot), so a reused pid is told apart
   */
  record Run(String id, String name, String workdir, long uid, String user, long pid, long pidStart) {
    /** Validates. */
    public Run {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(workdir, "workdir");
      Objects.requireNonNull(user, "user");
    }
  }

  /**
   * A share of one device's memory (or of the host's, under {@link #HOST}).
   *
   * @param key the device as every run names it (a GPU's UUID, a simulated device's selection and index, or host)
   * @param label the device as people name it, e.g. {@code cuda:0}
   * @param bytes memory the share holds
   * @param limitBytes how much memory Berth may hand out on this device in all
   */
  record Share(String key, String label, long bytes, long limitBytes) {
    /** Validates. */
    public Share {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(label, "label");
    }
  }

  /**
   * What an attempt is to hold.
   *
   * @param task the task's id
   * @param priority the task's priority (higher first)
   * @param milliCpus cores, in thousandths
   * @param cpuLimit cores the host has, in thousandths
   * @param shares host memory (under {@link #HOST}) and GPU memory per device
   */
  record Claim(String task, int priority, long milliCpus, long cpuLimit, List<Share> shares) {
    /** Copies. */
    public Claim {
      Objects.requireNonNull(task, "task");
      shares = List.copyOf(shares);
    }

    /** The GPUs the claim holds (its shares other than host memory). */
    public long gpus() {
      return shares.stream().filter(s -> !s.key().equals(HOST)).count();
    }
  }

  /**
   * A task that waits for resources, and what it needs.
   *
   * @param task the task's id
   * @param priority the task's priority
   * @param milliCpus cores it needs, in thousandths
   * @param hostMemoryBytes host memory it needs
   * @param gpuMemoryBytes GPU memory it needs on each of its devices
   * @param gpus how many devices it needs (0 for a CPU task)
   * @param devices the devices it may use, each with the limit Berth may hand out there
   */
  record Demand(String task, int priority, long milliCpus, long hostMemoryBytes, long gpuMemoryBytes, int gpus,
      List<Share> devices) {
    /** Copies. */
    public Demand {
      Objects.requireNonNull(task, "task");
      devices = List.copyOf(devices);
    }
  }

  /**
   * What one of this run's tasks was measured to use on one device.
   *
   * @param task the task's id
   * @param key the device key ({@link #HOST} for resident host memory)
   * @param bytes memory measured
   */
  record Measured(String task, String key, long bytes) {}

  /**
   * How a run is getting on, for {@code berth ps}.
   *
   * @param state e.g. {@code running}
   * @param running tasks with a process
   * @param waiting tasks ready but not started
   * @param done tasks that ended
   * @param total tasks in all
   */
  record Progress(String state, int running, int waiting, int done, int total) {
    /** Nothing run yet. */
    public static Progress starting(int total) {
      return new Progress("starting", 0, 0, 0, total);
    }
  }

  /**
   * One share held on the host.
   *
   * @param run the holding run's id
   * @param runName its name
   * @param user its user
   * @param task the task holding it
   * @param key the device key
   * @param label the device as people name it
   * @param bytes memory reserved
   * @param measuredBytes memory the task was last measured to use there
   * @param milliCpus cores held (on {@link #HOST})
   */
  record Reservation(String run, String runName, String user, String task, String key, String label, long bytes,
      long measuredBytes, long milliCpus) {
    /** What is reserved and not yet seen in use: the reservation minus the measured usage, never below zero. */
    public long outstandingBytes() {
      return Math.max(0, bytes - measuredBytes);
    }
  }

  /**
   * A run as {@code berth ps} shows it.
   *
   * @param run the run's id
   * @param name its name
   * @param user its user
   * @param pid its process
   * @param workdir its folder
   * @param progress how it is getting on (its final state once ended)
   * @param startedAt when it joined
   * @param endedAt when it left, if it has
   * @param reservations what it holds now
   */
  record RunEntry(String run, String name, String user, long pid, String workdir, Progress progress,
      Instant startedAt, Optional<Instant> endedAt, List<Reservation> reservations) {
    /** Copies. */
    public RunEntry {
      reservations = List.copyOf(reservations);
    }
  }
}
