package dev.berth.runtime.contain;

import dev.berth.core.lifecycle.MeasuredUsage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Containers as cgroups in the v1 hierarchies: {@code memory} (peak from
 * {@code memory.max_usage_in_bytes}, OOM kills from {@code memory.oom_control}, the limit in
 * {@code memory.limit_in_bytes}), {@code cpuacct} (CPU time from {@code cpuacct.usage}) and, where
 * mounted, {@code freezer} (to stop a forking tree before it is killed). Each lives in
 * {@code <own cgroup>/berth-<pid>/<name>} of each hierarchy, under Berth's own cgroup so the limits
 * Berth runs under still hold.
 *
 * <p>A v1 hierarchy moves single threads (its {@code tasks} file): a spawning thread of Berth's
 * {@linkplain Container#enter() enters} an attempt's groups, starts the process, which begins in
 * the thread's groups, and moves back to Berth's own, so no joining shell is needed.
 */
final class CgroupV1Containment implements TaskContainment {

  /** What a thread writes into a v1 {@code tasks} file to move itself alone. */
  private static final byte[] THIS_THREAD = {'0'};

  private final Path memory;
  private final Path cpuacct;
  private final Optional<Path> freezer;
  /** Berth's own {@code tasks} file of each hierarchy, kept open: every start goes back through each. */
  private final Map<Path, FileChannel> homeTasks = new ConcurrentHashMap<>();

  private CgroupV1Containment(Path memory, Path cpuacct, Optional<Path> freezer) {
    this.memory = memory;
    this.cpuacct = cpuacct;
    this.freezer = freezer;
  }

  /** The v1 containment, when the memory and cpuacct hierarchies let this process make cgroups. */
  static Optional<TaskContainment> available() {
    Optional<Path> memory = base("memory");
    Optional<Path> cpuacct = base("cpuacct");
    if (memory.isEmpty() || cpuacct.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new CgroupV1Containment(memory.get(), cpuacct.get(), base("freezer")));
  }

  private static Optional<Path> base(String controller) {
    Path mount = CgroupFiles.MOUNTS.resolve(controller);
    if (!Files.isDirectory(mount)) {
      return Optional.empty();
    }
    Path own = CgroupFiles.own(mount, CgroupFiles.ownPath(controller).orElse("/"));
    if (!Files.isRegularFile(own.resolve("cgroup.procs")) || !CgroupFiles.canCreateUnder(own)) {
      return Optional.empty();
    }
    CgroupFiles.sweepStale(own);
    return Optional.of(own.resolve("berth-" + ProcessHandle.current().pid()));
  }

  @Override
  public String mode() {
    return "cgroup v1";
  }

  @Override
  public String describe() {
    return "cgroup v1 (memory, cpuacct" + (freezer.isPresent() ? ", freezer" : "") + ") under " + memory.getParent();
  }

  @Override
  public boolean limitsMemory() {
    return true;
  }

  @Override
  public Container open(String name, long memoryLimitBytes) throws IOException {
    List<Path> dirs = new ArrayList<>(List.of(memory.resolve(name), cpuacct.resolve(name)));
    freezer.ifPresent(f -> dirs.add(f.resolve(name)));
    for (Path dir : dirs) {
      Files.createDirectories(dir);
    }
    if (memoryLimitBytes > 0) {
      CgroupFiles.write(dirs.get(0).resolve("memory.limit_in_bytes"), Long.toString(memoryLimitBytes));
    }
    return new V1Container(dirs, this::backInto);
  }

  /**
   * Moves the calling thread into {@code home}, Berth's own group of one hierarchy, through its
   * {@code tasks} file kept open: without a walk of the path and an open and close per start. A
   * descriptor that fails is dropped and the file written by its path.
   */
  private void backInto(Path home) throws IOException {
    FileChannel tasks = homeTasks.get(home);
    if (tasks == null) {
      FileChannel opened = FileChannel.open(home.resolve("tasks"), StandardOpenOption.WRITE);
      tasks = homeTasks.putIfAbsent(home, opened);
      if (tasks == null) {
        tasks = opened;
      } else {
        opened.close();
      }
    }
    try {
      tasks.write(ByteBuffer.wrap(THIS_THREAD), 0);
    } catch (IOException e) {
      homeTasks.remove(home, tasks);
      tasks.close();
      CgroupFiles.write(home.resolve("tasks"), "0");
    }
  }

  @Override
  public void close() {
    homeTasks.values().forEach(CgroupV1Containment::closeQuietly);
    homeTasks.clear();
    CgroupFiles.removeTree(memory);
    CgroupFiles.removeTree(cpuacct);
    freezer.ifPresent(CgroupFiles::removeTree);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      // a descriptor of a kernel file: nothing to flush
    }
  }

  /** How a thread goes back into Berth's own group of one hierarchy. */
  @FunctionalInterface
  private interface Home {
    void backInto(Path home) throws IOException;
  }

  /** The cgroups of one attempt: memory, cpuacct and maybe freezer. */
  private static final class V1Container implements Container {

    private final List<Path> dirs;
    /** Berth's own group in each hierarchy, where an entered thread goes back to. */
    private final List<Path> homes;
    private final Home home;
    private volatile MeasuredUsage last = MeasuredUsage.NONE;
    private volatile boolean oomKilled;
    /** Emptied: its figures are those read just before, and no file is read again. */
    private volatile boolean emptied;
    private volatile boolean closed;

    V1Container(List<Path> dirs, Home home) {
      this.dirs = dirs;
      this.home = home;
      this.homes = dirs.stream().map(d -> d.getParent().getParent()).toList();
    }

    /** Writing 0 into a v1 {@code tasks} file moves the writing thread alone. */
    @Override
    public Optional<Entered> enter() {
      List<Path> entered = new ArrayList<>(dirs.size());
      try {
        for (Path dir : dirs) {
          CgroupFiles.write(dir.resolve("tasks"), "0");
          entered.add(dir);
        }
      } catch (IOException e) {
        leave(entered.size());
        return Optional.empty();
      }
      return Optional.of(() -> leave(dirs.size()));
    }

    /** Moves the calling thread back into Berth's own group of the first {@code count} hierarchies. */
    private void leave(int count) {
      for (Path h : homes.subList(0, count)) {
        try {
          home.backInto(h);
        } catch (IOException e) {
          // the thread stays in the attempt's group, which is then not removed; it leaves when it enters the next
        }
      }
    }

    @Override
    public List<String> command(List<String> argv) {
      return CgroupFiles.joining(dirs, argv);
    }

    @Override
    public Map<String, String> environment() {
      return Map.of();
    }

    @Override
    public MeasuredUsage usage() {
      if (emptied) {
        return last;
      }
      OptionalLong peak = CgroupFiles.read(dirs.get(0).resolve("memory.max_usage_in_bytes"), "");
      OptionalLong nanos = CgroupFiles.read(dirs.get(1).resolve("cpuacct.usage"), "");
      if (peak.isPresent() || nanos.isPresent()) {
        OptionalDouble cpu = nanos.isPresent() ? OptionalDouble.of(nanos.getAsLong() / 1e9) : OptionalDouble.empty();
        last = new MeasuredUsage(peak, cpu, OptionalLong.empty(), true);
      }
      return last;
    }

    @Override
    public boolean oomKilled() {
      if (emptied) {
        return oomKilled;
      }
      oomKilled |= CgroupFiles.read(dirs.get(0).resolve("memory.oom_control"), "oom_kill").orElse(0) > 0;
      return oomKilled;
    }

    @Override
    public List<ProcessHandle> signalAll(boolean force) {
      Optional<Path> freezer = dirs.size() > 2 ? Optional.of(dirs.get(2)) : Optional.empty();
      freeze(freezer, "FROZEN");
      List<ProcessHandle> signalled = CgroupFiles.signal(dirs.subList(0, 2), force);
      freeze(freezer, "THAWED");
      return signalled;
    }

    private static void freeze(Optional<Path> freezer, String state) {
      if (freezer.isPresent()) {
        try {
          CgroupFiles.write(freezer.get().resolve("freezer.state"), state);
        } catch (IOException e) {
          // killing without freezing still ends a tree, only with more rounds
        }
      }
    }

    @Override
    public boolean isEmpty() {
      return CgroupFiles.procs(dirs.get(0)).isEmpty() && CgroupFiles.procs(dirs.get(1)).isEmpty();
    }

    @Override
    public synchronized void empty() {
      if (!emptied) {
        Containers.readThenEmpty(this);
        emptied = true;
      }
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      empty();
      closed = dirs.stream().map(CgroupFiles::remove).reduce(true, Boolean::logicalAnd);
    }
  }
}
