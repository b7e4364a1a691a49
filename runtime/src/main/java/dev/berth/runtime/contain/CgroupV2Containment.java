package dev.berth.runtime.contain;

import dev.berth.core.lifecycle.MeasuredUsage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Containers as cgroup v2 groups (the unified hierarchy, as most machines now have it, possibly
 * delegated to the user under a systemd scope): peak memory from {@code memory.peak} (sampled from
 * {@code memory.current} on kernels before 5.19), CPU time from {@code cpu.stat}, OOM kills from
 * {@code memory.events}, the limit in {@code memory.max}, and {@code cgroup.kill} to end a tree at
 * once. A v2 group with processes cannot hand controllers to child groups, so Berth first moves
 * itself into a leaf {@code berth-<pid>-self} beside the {@code berth-<pid>} group its tasks go in.
 */
final class CgroupV2Containment implements TaskContainment {

  private final Path base;

  private CgroupV2Containment(Path base) {
    this.base = base;
  }

  /** The v2 containment, when this process's v2 group offers the memory controller and Berth may use it. */
  static Optional<TaskContainment> available() {
    Optional<String> path = CgroupFiles.ownPath("");
    Path mount = Files.isRegularFile(CgroupFiles.MOUNTS.resolve("cgroup.controllers"))
        ? CgroupFiles.MOUNTS : CgroupFiles.MOUNTS.resolve("unified");
    if (path.isEmpty() || !Files.isRegularFile(mount.resolve("cgroup.controllers"))) {
      return Optional.empty();
    }
    Path own = CgroupFiles.own(mount, path.get());
    if (!words(own.resolve("cgroup.controllers")).contains("memory") || !CgroupFiles.canCreateUnder(own)) {
      return Optional.empty();
    }
    CgroupFiles.sweepStale(own);
    try {
      Path base = own.resolve("berth-" + ProcessHandle.current().pid());
      enableMemory(own);
      Files.createDirectories(base);
      CgroupFiles.write(base.resolve("cgroup.subtree_control"), "+memory");
      return Optional.of(new CgroupV2Containment(base));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Hands the memory controller to {@code own}'s children, moving Berth into a leaf of its own first when it must. */
  private static void enableMemory(Path own) throws IOException {
    if (words(own.resolve("cgroup.subtree_control")).contains("memory")) {
      return;
    }
    try {
      CgroupFiles.write(own.resolve("cgroup.subtree_control"), "+memory");
    } catch (IOException busy) {
      Path self = own.resolve("berth-" + ProcessHandle.current().pid() + "-self");
      Files.createDirectories(self);
      CgroupFiles.write(self.resolve("cgroup.procs"), Long.toString(ProcessHandle.current().pid()));
      CgroupFiles.write(own.resolve("cgroup.subtree_control"), "+memory");
    }
  }

  private static List<String> words(Path file) {
    try {
      return List.of(Files.readString(file).trim().split("\\s+"));
    } catch (IOException e) {
      return List.of();
    }
  }

  @Override
  public String mode() {
    return "cgroup v2";
  }

  @Override
  public String describe() {
    return "cgroup v2 under " + base;
  }

  @Override
  public boolean limitsMemory() {
    return true;
  }

  @Override
  public Container open(String name, long memoryLimitBytes) throws IOException {
    Path dir = base.resolve(name);
    Files.createDirectories(dir);
    if (memoryLimitBytes > 0) {
      CgroupFiles.write(dir.resolve("memory.max"), Long.toString(memoryLimitBytes));
      try {
        CgroupFiles.write(dir.resolve("memory.swap.max"), "0"); // a limit swap could stretch stops nothing
      } catch (IOException noSwapAccounting) {
        // no swap accounting: the limit holds for resident memory
      }
    }
    return new V2Container(dir);
  }

  @Override
  public void close() {
    CgroupFiles.removeTree(base);
  }

  /** One attempt's v2 group. */
  private static final class V2Container implements Container {

    private final Path dir;
    private volatile long sampledPeak = -1;
    private volatile MeasuredUsage last = MeasuredUsage.NONE;
    private volatile boolean oomKilled;
    /** Emptied: its figures are those read just before, and no file is read again. */
    private volatile boolean emptied;
    private volatile boolean closed;

    V2Container(Path dir) {
      this.dir = dir;
    }

    @Override
    public List<String> command(List<String> argv) {
      return CgroupFiles.joining(List.of(dir), argv);
    }

    @Override
    public Map<String, String> environment() {
      return Map.of();
    }

    @Override
    public void sample() {
      if (!Files.exists(dir.resolve("memory.peak"))) {
        CgroupFiles.read(dir.resolve("memory.current"), "").ifPresent(b -> sampledPeak = Math.max(sampledPeak, b));
      }
    }

    @Override
    public MeasuredUsage usage() {
      if (emptied) {
        return last;
      }
      OptionalLong peak = CgroupFiles.read(dir.resolve("memory.peak"), "");
      boolean exact = peak.isPresent();
      if (peak.isEmpty() && sampledPeak >= 0) {
        peak = OptionalLong.of(sampledPeak);
      }
      OptionalLong micros = CgroupFiles.read(dir.resolve("cpu.stat"), "usage_usec");
      if (peak.isPresent() || micros.isPresent()) {
        OptionalDouble cpu = micros.isPresent() ? OptionalDouble.of(micros.getAsLong() / 1e6) : OptionalDouble.empty();
        last = new MeasuredUsage(peak, cpu, OptionalLong.empty(), exact);
      }
      return last;
    }

    @Override
    public boolean oomKilled() {
      if (emptied) {
        return oomKilled;
      }
      oomKilled |= CgroupFiles.read(dir.resolve("memory.events"), "oom_kill").orElse(0) > 0;
      return oomKilled;
    }

    @Override
    public List<ProcessHandle> signalAll(boolean force) {
      if (force) {
        try {
          CgroupFiles.write(dir.resolve("cgroup.kill"), "1");
        } catch (IOException beforeLinux514) {
          // signalled one by one below
        }
      }
      return CgroupFiles.signal(List.of(dir), force);
    }

    @Override
    public boolean isEmpty() {
      return CgroupFiles.procs(dir).isEmpty();
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
      closed = CgroupFiles.remove(dir);
    }
  }
}
