package dev.berth.client;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.Names;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.scheduling.RetrySelection;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Suggestions;
import dev.berth.report.Objective;
import dev.berth.runtime.engine.RunListener;
import dev.berth.session.AdapterTables;
import dev.berth.session.SessionOptions;
import dev.berth.spi.Executor;
import dev.berth.spi.GpuProbe;
import dev.berth.spi.HostProbe;
import dev.berth.spi.Timers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How a {@link Berth} session runs: its name and folder, the scheduler configuration (every key of
 * a spec's {@code config:}), the GPUs to use, and what the final reports rank by. Immutable; made
 * with {@link #builder()}, which checks everything when {@link Builder#build()} is called.
 */
public final class BerthOptions {

  private static final java.util.Set<String> ISSUED = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final String name;
  private final Path workdir;
  private final SchedulerConfig config;
  private final String gpus;
  private final Objective objective;
  private final boolean writeReports;
  private final boolean fresh;
  private final boolean allowNonEmptyWorkdir;
  private final RetrySelection retry;
  private final boolean hostLedger;
  private final RunListener listener;
  private final Consumer<SessionOptions.Builder> testSeams;
  private final Map<SettingsTable<?, ?>, Object> adapters;

  private BerthOptions(Builder b, String name, Path workdir, SchedulerConfig config) {
    this.name = name;
    this.workdir = workdir;
    this.config = config;
    this.gpus = b.gpus;
    this.objective = b.objective;
    this.writeReports = b.writeReports;
    this.fresh = b.fresh;
    this.allowNonEmptyWorkdir = b.allowNonEmptyWorkdir;
    this.retry = b.retry;
    this.hostLedger = b.hostLedger;
    this.listener = b.listener;
    this.testSeams = b.testSeams;
    this.adapters = Map.copyOf(b.adapters);
  }

  /** A builder with the defaults: see each setter. */
  public static Builder builder() {
    return new Builder();
  }

  /** Every default: a fresh session name, {@code berth-out/<name>}, the default configuration, GPUs {@code auto}. */
  public static BerthOptions defaults() {
    return builder().build();
  }

  /** The session's name, the run name in its report. */
  public String name() {
    return name;
  }

  /** The session's folder, where each task gets {@code <group>/<task>/} and the reports go. */
  public Path workdir() {
    return workdir;
  }

  /** The scheduler configuration. */
  public SchedulerConfig config() {
    return config;
  }

  /** The GPU selection text. */
  public String gpus() {
    return gpus;
  }

  /** What the final reports' sweep section ranks by, if anything. */
  public Optional<Objective> objective() {
    return Optional.ofNullable(objective);
  }

  /** Whether {@link Berth#close()} writes {@code report.html}, {@code report.md} and {@code results.csv}. */
  public boolean writeReports() {
    return writeReports;
  }

  /**
   * Whether {@link Berth#local} starts a new session even when the folder holds an earlier one,
   * moving the old folder aside ({@code <workdir>.old-<time>}) as {@code berth run --fresh} does.
   */
  public boolean fresh() {
    return fresh;
  }

  /**
   * Whether {@link Berth#local} may start a first session in a folder that already holds other files;
   * see {@link Builder#allowNonEmptyWorkdir}.
   */
  public boolean allowNonEmptyWorkdir() {
    return allowNonEmptyWorkdir;
  }

  /** What {@link Berth#local} retries in the folder's earlier session, if anything; see {@link Builder#retry}. */
  public Optional<RetrySelection> retry() {
    return Optional.ofNullable(retry);
  }

  /** Whether the session shares the host ledger with every other Berth run on this machine. */
  public boolean hostLedger() {
    return hostLedger;
  }

  /** The extra engine listener, or {@link RunListener#NONE}. */
  public RunListener listener() {
    return listener;
  }

  /** {@code run} carrying the adapter settings these options set ({@link Builder#settings}). */
  RunSpec carriedBy(RunSpec run) {
    RunSpec carried = run;
    for (Map.Entry<SettingsTable<?, ?>, Object> e : adapters.entrySet()) {
      carried = into(e.getKey(), carried, e.getValue());
    }
    return carried;
  }

  private static <R> RunSpec into(SettingsTable<R, ?> table, RunSpec run, Object settings) {
    return table.into(run, table.type().cast(settings));
  }

  /**
   * The local session these options stand for: a run kept open for submissions, interrupted (and
   * resumable) when the JVM exits without {@link Berth#close()}, with the test seams set; the spec and listeners are the caller's.
   */
  SessionOptions.Builder sessionOptions() {
    SessionOptions.Builder b = SessionOptions.builder(workdir.toAbsolutePath().normalize())
        .keepOpen(true)
        .fresh(fresh)
        .allowNonEmptyWorkdir(allowNonEmptyWorkdir)
        .retry(retry)
        .hostLedger(hostLedger)
        .writeReports(writeReports)
        .onJvmExit(SessionOptions.JvmExit.INTERRUPT);
    testSeams.accept(b);
    return b;
  }

  /**
   * Builds {@link BerthOptions}. Configuration setters change one key of the configuration held so
   * far, in call order: call {@link #config(SchedulerConfig)} first to start from a whole
   * configuration (for example one loaded from a config file), then adjust keys.
   */
  public static final class Builder {
    private String name;
    private Path workdir;
    private SchedulerConfig.Builder config = SchedulerConfig.builder();
    private final Map<SettingsTable<?, ?>, Object> adapters = new LinkedHashMap<>();
    private String gpus = DeviceSelection.DEFAULT;
    private Objective objective;
    private boolean writeReports = true;
    private boolean fresh;
    private boolean allowNonEmptyWorkdir;
    private RetrySelection retry;
    private boolean hostLedger = true;
    private RunListener listener = RunListener.NONE;
    private Consumer<SessionOptions.Builder> testSeams = b -> { };

    private Builder() {}

    /**
     * The session's name ({@code [A-Za-z0-9._-]+}); default {@code session-<date>-<time>}, made unique
     * among the folders under {@code berth-out}.
     */
    public Builder name(String name) {
      this.name = name;
      return this;
    }

    /** The session's folder; default {@code berth-out/<name>} under the current directory. */
    public Builder workdir(Path workdir) {
      this.workdir = Objects.requireNonNull(workdir, "workdir");
      return this;
    }

    /** The session's folder; see {@link #workdir(Path)}. */
    public Builder workdir(String workdir) {
      return workdir(Path.of(workdir));
    }

    /** The whole scheduler configuration, replacing every key set so far. */
    public Builder config(SchedulerConfig config) {
      this.config = config.toBuilder();
      return this;
    }

    /**
     * Sets one configuration key, written as in a spec's {@code config:} or {@code --set}: any key
     * {@code berth config --defaults} lists, e.g. {@code set("scheduler.max-process", 4)} or
     * {@code set("scheduler.default-memory", "512MiB")}. The value is read by the key's own row, so it
     * means here what it means in YAML.
     *
     * @throws IllegalArgumentException naming the key and the rule, for an unknown key or a wrong value
     */
    public Builder set(String key, Object value) {
      Optional<ConfigKey<SchedulerConfig, SchedulerConfig.Builder, ?>> scheduling = SchedulerKeys.TABLE.key(key);
      if (scheduling.isPresent()) {
        put(scheduling.get(), value);
        return this;
      }
      for (SettingsTable<?, ?> table : AdapterTables.ALL) {
        if (table.key(key).isPresent()) {
          return setIn(table, key, value);
        }
      }
      List<String> known = new ArrayList<>(SchedulerKeys.TABLE.keys().stream().map(ConfigKey::key).toList());
      AdapterTables.ALL.forEach(t -> t.keys().forEach(k -> known.add(k.key())));
      throw new IllegalArgumentException(key + ": " + Suggestions.unknownKey(key, known));
    }

    /**
     * The settings of one adapter (mail, webhook, Slurm, or one of the caller's), replacing those set
     * so far, e.g. {@code settings(SmtpKeys.TABLE, smtp)}.
     */
    public <R> Builder settings(SettingsTable<R, ?> table, R settings) {
      adapters.put(table, Objects.requireNonNull(settings, "settings"));
      return this;
    }

    /**
     * Which GPUs to use: {@code auto} (NVML, then nvidia-smi, then none), {@code none}, indices such
     * as {@code 0,2}, or simulated devices such as {@code sim:2x24GiB}. Default {@code auto}.
     */
    public Builder gpus(String selection) {
      this.gpus = selection;
      return this;
    }

    /** What the final reports' sweep section ranks by; none by default. */
    public Builder objective(Objective objective) {
      this.objective = objective;
      return this;
    }

    /** Whether closing writes the HTML, Markdown and CSV reports next to {@code report.json}. Default true. */
    public Builder writeReports(boolean write) {
      this.writeReports = write;
      return this;
    }

    /**
     * What to do with a folder that holds an earlier session. False (the default): a session that
     * did not finish (its process died, or {@code close()} was not reached) is resumed, and a
     * session that finished is refused. True: the folder, if it holds anything, is moved aside to
     * {@code <workdir>.old-<time>} (as {@code berth run --fresh} does) and a new session starts.
     */
    public Builder fresh(boolean fresh) {
      this.fresh = fresh;
      return this;
    }

    /**
     * Whether a first session may start in a folder that already holds files but no Berth run, writing
     * its {@code .berth/} folder, task folders and reports among them, as {@code berth run
     * --workdir-allow-nonempty} does. Default false: such a folder is refused. A folder used so is
     * never moved aside by {@link #fresh(boolean) fresh(true)}.
     */
    public Builder allowNonEmptyWorkdir(boolean allow) {
      this.allowNonEmptyWorkdir = allow;
      return this;
    }

    /**
     * Retries the folder's earlier session as {@code berth retry} does, also one that finished: the
     * tasks {@code selection} chooses ({@link RetrySelection#everything()}: every task that did not
     * succeed; or ids, globs and {@code group:NAME} with {@code failed} and {@code cancelled}
     * narrowing to those endings) and the tasks that became unreachable through them wait again, with
     * their {@code retries} budget afresh and their attempt numbers counting on; successes are kept.
     * Their handles are {@link Berth#handle}'s. {@link Berth#local} throws
     * {@link IllegalStateException} when a selector matches no task or nothing is left to retry.
     * Default none.
     */
    public Builder retry(RetrySelection selection) {
      this.retry = selection;
      return this;
    }

    /**
     * Whether the session shares the host ledger with every other Berth run on this machine (true,
     * the default: other runs' reservations are not free to it and waiting tasks queue host-wide),
     * or is alone ({@code berth run --host-ledger off}).
     */
    public Builder hostLedger(boolean shared) {
      this.hostLedger = shared;
      return this;
    }

    /**
     * An extra listener of the engine, called on the engine's thread after the session's own
     * bookkeeping for each event; it must return quickly and must not call the session's blocking
     * methods. Default none.
     */
    public Builder listener(RunListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** For tests: the executor instead of a {@code LocalProcessExecutor}; the session closes it. */
    Builder executor(Executor executor) {
      testSeams = testSeams.andThen(b -> b.executor(executor));
      return this;
    }

    /** For tests: the host probe instead of an {@code OshiHostProbe}. */
    Builder hostProbe(HostProbe probe) {
      testSeams = testSeams.andThen(b -> b.hostProbe(probe));
      return this;
    }

    /** For tests: the GPU probe instead of the one {@link #gpus} selects; the session closes it. */
    Builder gpuProbe(GpuProbe probe) {
      testSeams = testSeams.andThen(b -> b.gpuProbe(probe));
      return this;
    }

    /** For tests: the clock and its timers together, e.g. a {@code FakeClock}. */
    <C extends InstantSource & Timers> Builder clock(C clock) {
      testSeams = testSeams.andThen(b -> b.clock(clock));
      return this;
    }

    /**
     * Checks every option and builds.
     *
     * @throws IllegalArgumentException stating the broken rule: the name's characters, a
     *     configuration key's range, the GPU selection's form
     */
    public BerthOptions build() {
      String n = name;
      if (n == null) {
        n = freshName();
      } else {
        Names.check("session", n);
      }
      SchedulerConfig c = config.build();
      try {
        DeviceSelection.parse(gpus);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("gpus: " + e.getMessage(), e);
      }
      Path dir = workdir != null ? workdir : Path.of("berth-out", n);
      return new BerthOptions(this, n, dir, c);
    }

    private <T> void put(ConfigKey<SchedulerConfig, SchedulerConfig.Builder, T> key, Object value) {
      try {
        key.put(config, key.parser().parse(value));
      } catch (InvalidValue e) {
        throw new IllegalArgumentException(TaskSettings.message(e.under(key.key())), e);
      }
    }

    /** {@code key} of {@code table} set to {@code value}, over the adapter's settings so far. */
    private <R> Builder setIn(SettingsTable<R, ?> table, String key, Object value) {
      R current = current(table);
      Map<String, Object> written = new LinkedHashMap<>();
      for (ConfigKey<R, ?, ?> k : table.keys()) {
        Object before = k.get().apply(current);
        if (!Objects.equals(before, k.get().apply(table.defaults()))) {
          written.put(k.key(), before); // as its parser returned it, which the parser takes again
        }
      }
      written.put(key, value);
      try {
        return settings(table, table.read(written));
      } catch (InvalidValue e) {
        throw new IllegalArgumentException(TaskSettings.message(e), e);
      }
    }

    private <R> R current(SettingsTable<R, ?> table) {
      Object set = adapters.get(table);
      return set == null ? table.defaults() : table.type().cast(set);
    }

    private static String freshName() {
      String base = "session-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      String candidate = base;
      for (int i = 2; Files.exists(Path.of("berth-out", candidate)) || !ISSUED.add(candidate); i++) {
        candidate = base + "-" + i;
      }
      return candidate;
    }
  }
}
