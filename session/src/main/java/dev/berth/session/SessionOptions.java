package dev.berth.session;

import dev.berth.core.model.RunSpec;
import dev.berth.core.scheduling.RetrySelection;
import dev.berth.runtime.engine.RunListener;
import dev.berth.slurm.SlurmKeys;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.JobsOnExit;
import dev.berth.spi.SharedReservations;
import dev.berth.spi.Timers;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What a front door chooses for a {@link LocalSession}: the run and its folder, how a journaled run
 * resumes, what the session tells the user and where, what happens when the JVM exits, and, for
 * tests, the clock, probes and executor. Immutable; made with {@link #builder(Path)}.
 */
public final class SessionOptions {

  /** What the session does when the JVM exits while its run goes on. */
  public enum JvmExit {
    /**
     * Interrupt the run and wait (up to 30 s) until it ended, so that its interruption is journaled
     * and its reports are written: running tasks are terminated and recorded {@code INTERRUPTED},
     * and the run resumes where it stopped.
     */
    INTERRUPT,
    /**
     * Leave the run to be resumed: nothing more is journaled and the task processes are killed, so
     * that to the next session on the folder their attempts look as after a crash.
     */
    LEAVE_RESUMABLE
  }

  private final Path workdir;
  private final RunSpec spec;
  private final Path specFile;
  private final SpecChange specChange;
  private final boolean journaled;
  private final boolean fresh;
  private final boolean allowNonEmptyWorkdir;
  private final RetrySelection retry;
  private final boolean keepOpen;
  private final boolean insideAllocation;
  private final boolean writeReports;
  private final UnaryOperator<RunSpec> adjust;
  private final List<RunListener> listeners;
  private final JvmExit jvmExit;
  private final Predicate<JobsOnExit> leaveJobs;
  private final Consumer<String> say;
  private final Consumer<String> warn;
  private final UnaryOperator<String> env;
  private final InstantSource clock;
  private final Timers timers;
  private final HostProbe hostProbe;
  private final GpuProbe gpuProbe;
  private final Executor executor;
  private final boolean hostLedger;
  private final SharedReservations sharedReservations;

  private SessionOptions(Builder b) {
    this.workdir = b.workdir;
    this.spec = b.spec;
    this.specFile = b.specFile;
    this.specChange = b.specChange;
    this.journaled = b.journaled;
    this.fresh = b.fresh;
    this.allowNonEmptyWorkdir = b.allowNonEmptyWorkdir;
    this.retry = b.retry;
    this.keepOpen = b.keepOpen;
    this.insideAllocation = b.insideAllocation;
    this.writeReports = b.writeReports;
    this.adjust = b.adjust;
    this.listeners = List.copyOf(b.listeners);
    this.jvmExit = b.jvmExit;
    this.leaveJobs = b.leaveJobs;
    this.say = b.say;
    this.warn = b.warn;
    this.env = b.env;
    this.clock = b.clock;
    this.timers = b.timers;
    this.hostProbe = b.hostProbe;
    this.gpuProbe = b.gpuProbe;
    this.executor = b.executor;
    this.hostLedger = b.hostLedger;
    this.sharedReservations = b.sharedReservations;
  }

  /** Options for the run in {@code workdir}, with every default: see each setter. */
  public static Builder builder(Path workdir) {
    return new Builder(workdir);
  }

  Path workdir() {
    return workdir;
  }

  Optional<RunSpec> spec() {
    return Optional.ofNullable(spec);
  }

  Optional<Path> specFile() {
    return Optional.ofNullable(specFile);
  }

  SpecChange specChange() {
    return specChange;
  }

  boolean journaled() {
    return journaled;
  }

  boolean fresh() {
    return fresh;
  }

  boolean allowNonEmptyWorkdir() {
    return allowNonEmptyWorkdir;
  }

  Optional<RetrySelection> retry() {
    return Optional.ofNullable(retry);
  }

  boolean keepOpen() {
    return keepOpen;
  }

  boolean insideAllocation() {
    return insideAllocation;
  }

  boolean writeReports() {
    return writeReports;
  }

  UnaryOperator<RunSpec> adjust() {
    return adjust;
  }

  /**
   * An {@link Builder#adjust adjustment} that sets what Ctrl-C does to the jobs a run submitted to a
   * cluster ({@code --on-exit}), over the run's {@code slurm.on-exit}, for this session only.
   */
  public static UnaryOperator<RunSpec> onExit(JobsOnExit choice) {
    Objects.requireNonNull(choice, "choice");
    return run -> SlurmKeys.TABLE.into(run, SlurmKeys.TABLE.of(run).toBuilder().set(SlurmKeys.ON_EXIT, choice).build());
  }

  List<RunListener> listeners() {
    return listeners;
  }

  JvmExit jvmExit() {
    return jvmExit;
  }

  Predicate<JobsOnExit> leaveJobs() {
    return leaveJobs;
  }

  void say(String line) {
    say.accept(line);
  }

  Consumer<String> say() {
    return say;
  }

  void warn(String line) {
    warn.accept(line);
  }

  UnaryOperator<String> env() {
    return env;
  }

  InstantSource clock() {
    return clock != null ? clock : InstantSource.system();
  }

  Optional<Timers> timers() {
    return Optional.ofNullable(timers);
  }

  Optional<HostProbe> hostProbe() {
    return Optional.ofNullable(hostProbe);
  }

  Optional<GpuProbe> gpuProbe() {
    return Optional.ofNullable(gpuProbe);
  }

  Optional<Executor> executor() {
    return Optional.ofNullable(executor);
  }

  boolean hostLedger() {
    return hostLedger;
  }

  Optional<SharedReservations> sharedReservations() {
    return Optional.ofNullable(sharedReservations);
  }

  /** Builds {@link SessionOptions}. */
  public static final class Builder {
    private final Path workdir;
    private RunSpec spec;
    private Path specFile;
    private SpecChange specChange = SpecChange.REFUSE;
    private boolean journaled = true;
    private boolean fresh;
    private boolean allowNonEmptyWorkdir;
    private RetrySelection retry;
    private boolean keepOpen;
    private boolean insideAllocation;
    private boolean writeReports = true;
    private UnaryOperator<RunSpec> adjust = UnaryOperator.identity();
    private final List<RunListener> listeners = new ArrayList<>();
    private JvmExit jvmExit = JvmExit.INTERRUPT;
    private Predicate<JobsOnExit> leaveJobs = JobsOnExit.LEAVE::equals;
    private Consumer<String> say = line -> { };
    private Consumer<String> warn = System.err::println;
    private UnaryOperator<String> env = System::getenv;
    private InstantSource clock;
    private Timers timers;
    private HostProbe hostProbe;
    private GpuProbe gpuProbe;
    private Executor executor;
    private boolean hostLedger = true;
    private SharedReservations sharedReservations;

    private Builder(Path workdir) {
      this.workdir = Objects.requireNonNull(workdir, "workdir");
    }

    /** The spec to run; without one (the default) the run in the folder resumes with the spec it started with. */
    public Builder spec(RunSpec spec) {
      this.spec = spec;
      return this;
    }

    /** The file the spec was read from, whose folder is refused as the workdir. Default none. */
    public Builder specFile(Path file) {
      this.specFile = file;
      return this;
    }

    /** What to do when the spec given differs from the one the run started with. Default {@link SpecChange#REFUSE}. */
    public Builder specChange(SpecChange change) {
      this.specChange = Objects.requireNonNull(change, "change");
      return this;
    }

    /** Whether to keep a journal; without one the run cannot resume. Default true. */
    public Builder journaled(boolean journaled) {
      this.journaled = journaled;
      return this;
    }

    /** Whether to move an earlier run in the folder aside ({@code <workdir>.old-<time>}) and start over. Default false. */
    public Builder fresh(boolean fresh) {
      this.fresh = fresh;
      return this;
    }

    /**
     * Whether a first run may start in a folder that already holds files but no Berth run, writing
     * its {@code .berth/} folder, task folders and reports among them. Default false: such a folder
     * is refused. A folder used so is marked, and a fresh start never moves it aside.
     */
    public Builder allowNonEmptyWorkdir(boolean allow) {
      this.allowNonEmptyWorkdir = allow;
      return this;
    }

    /**
     * Retries the run in the folder before it goes on: the tasks {@code selection} chooses (by
     * default every task that did not succeed) and the tasks that became unreachable through them
     * wait again, with their {@code retries} budget afresh and their attempt numbers counting on;
     * successes are kept; a run that had ended goes on. Default (or null) none: a run that ended is refused.
     */
    public Builder retry(RetrySelection selection) {
      this.retry = selection;
      return this;
    }

    /**
     * Whether the run takes groups as it goes ({@link LocalSession#submit}) and ends only when the
     * session is closed, as a Java session does; its spec grows, and when resumed its stored groups
     * come back under the spec given now. Default false: the run ends when its tasks have.
     */
    public Builder keepOpen(boolean keepOpen) {
      this.keepOpen = keepOpen;
      return this;
    }

    /**
     * Runs as the engine inside a Slurm allocation that another Berth asked for: that Berth holds
     * the folder's lock, and the tasks run as local processes on what the allocation holds.
     */
    public Builder insideAllocation(boolean inside) {
      this.insideAllocation = inside;
      return this;
    }

    /** Whether {@code report.html}, {@code report.md} and {@code results.csv} are written as the run ends. Default true. */
    public Builder writeReports(boolean write) {
      this.writeReports = write;
      return this;
    }

    /**
     * Changes the run the session goes on with, after the journal gave it: settings of this session
     * only (such as {@code --on-exit}), never part of what the run is.
     */
    public Builder adjust(UnaryOperator<RunSpec> change) {
      this.adjust = Objects.requireNonNull(change, "change");
      return this;
    }

    /** Adds an engine listener (called on the engine's thread, before the session's own), e.g. a console view. */
    public Builder listener(RunListener listener) {
      listeners.add(Objects.requireNonNull(listener, "listener"));
      return this;
    }

    /** What happens when the JVM exits while the run goes on. Default {@link JvmExit#INTERRUPT}. */
    public Builder onJvmExit(JvmExit policy) {
      this.jvmExit = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * On a cluster, when the JVM exits while jobs run: whether to leave them running for a later
     * resume, given {@code slurm.on-exit} ({@code ask}, {@code cancel} or {@code leave}). Default: only
     * for {@code leave}. A front door with a terminal asks there. An allocation of {@code slurm.mode:
     * allocation} left running the session announces on its {@link #say say} lines itself.
     */
    public Builder leaveJobs(Predicate<JobsOnExit> answer) {
      this.leaveJobs = Objects.requireNonNull(answer, "answer");
      return this;
    }

    /** Where the session's news lines go (resuming, GPUs not found, report warnings). Default nowhere. */
    public Builder say(Consumer<String> lines) {
      this.say = Objects.requireNonNull(lines, "lines");
      return this;
    }

    /** Where the session's problem lines go (a timer failed, {@code berth cancel} cannot reach it). Default standard error. */
    public Builder warn(Consumer<String> lines) {
      this.warn = Objects.requireNonNull(lines, "lines");
      return this;
    }

    /** The environment ({@code PATH}, Slurm's variables, mail password variables). Default this process's. */
    public Builder env(UnaryOperator<String> env) {
      this.env = Objects.requireNonNull(env, "env");
      return this;
    }

    /** For tests: the clock and its timers together, e.g. a {@code FakeClock}, instead of the system's. */
    public <C extends InstantSource & Timers> Builder clock(C clock) {
      this.clock = clock;
      this.timers = clock;
      return this;
    }

    /** For tests: the host probe instead of OSHI's. */
    public Builder hostProbe(HostProbe probe) {
      this.hostProbe = probe;
      return this;
    }

    /** For tests: the GPU probe instead of the one the spec's {@code gpus} selects; the session closes it. */
    public Builder gpuProbe(GpuProbe probe) {
      this.gpuProbe = probe;
      return this;
    }

    /** For tests: the executor instead of local processes or Slurm jobs; the session closes it. */
    public Builder executor(Executor executor) {
      this.executor = executor;
      return this;
    }

    /**
     * Whether the run takes part in the host ledger every Berth run on this machine shares (in
     * {@code $BERTH_HOST_DIR}, default {@code /var/tmp/berth-host}): then other runs' reservations
     * are not free to it and waiting tasks queue host-wide. False ({@code --host-ledger off}) for a
     * run that wants to be alone. Runs on Slurm never use it for their cluster jobs. Default true.
     */
    public Builder hostLedger(boolean share) {
      this.hostLedger = share;
      return this;
    }

    /** For tests: the host ledger to join instead of the one in the host folder; the session closes it. */
    public Builder hostLedger(SharedReservations ledger) {
      this.sharedReservations = Objects.requireNonNull(ledger, "ledger");
      this.hostLedger = true;
      return this;
    }

    /** The options. */
    public SessionOptions build() {
      return new SessionOptions(this);
    }
  }
}
