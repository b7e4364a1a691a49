package dev.berth.runtime.contain;

import dev.berth.core.lifecycle.MeasuredUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The fallback where Berth cannot make cgroups: an attempt's processes are those carrying its
 * marker variable {@code BERTH_CONTAINER}, which every child inherits however it detaches (a
 * background job, a {@code setsid} double fork), found through {@code /proc}. Memory and CPU time
 * are sampled, so a short peak between samples can be missed, and no limit can be enforced. A
 * process that both clears its environment and leaves its parent escapes this mode; cgroups have
 * no such gap. (Berth does not make itself a child subreaper here: the JDK reaps only the children
 * it started, so re-parented orphans would stay zombies of Berth.)
 */
final class ProcessTreeContainment implements TaskContainment {

  /** The variable that marks an attempt's processes. */
  static final String MARKER = "BERTH_CONTAINER";

  @Override
  public String mode() {
    return "process tree";
  }

  @Override
  public String describe() {
    return "process tree (no cgroup could be made; processes found by their " + MARKER + " variable, usage sampled)";
  }

  @Override
  public boolean limitsMemory() {
    return false;
  }

  @Override
  public Container open(String name, long memoryLimitBytes) {
    return new Tree(ProcessHandle.current().pid() + "." + name);
  }

  /** The processes carrying one marker. */
  private static final class Tree implements Container {

    private final String marker;
    private final Map<Long, Long> cpuTicksByPid = new HashMap<>();
    private long peakBytes = -1;
    /** Emptied once: what it found then was killed, and nothing of it is looked for again. */
    private boolean emptied;

    Tree(String marker) {
      this.marker = marker;
    }

    @Override
    public List<String> command(List<String> argv) {
      return argv;
    }

    @Override
    public Map<String, String> environment() {
      return Map.of(MARKER, marker);
    }

    @Override
    public void sample() {
      if (!ProcScan.usable()) {
        return;
      }
      // A scan that finds nothing proves nothing for later: a process in the middle of an exec shows
      // an empty environment for a moment, and it may be the task's only one.
      List<ProcScan.Seen> seen = ProcScan.marked(MARKER + "=" + marker);
      synchronized (this) {
        long rss = 0;
        for (ProcScan.Seen p : seen) {
          rss += p.rssBytes();
          cpuTicksByPid.merge(p.pid(), p.cpuTicks(), Math::max);
        }
        peakBytes = Math.max(peakBytes, rss);
      }
    }

    @Override
    public synchronized MeasuredUsage usage() {
      if (peakBytes < 0) {
        return MeasuredUsage.NONE;
      }
      long ticks = cpuTicksByPid.values().stream().mapToLong(Long::longValue).sum();
      return new MeasuredUsage(OptionalLong.of(peakBytes), OptionalDouble.of(ticks / ProcScan.TICKS_PER_SECOND),
          OptionalLong.empty(), false);
    }

    @Override
    public boolean oomKilled() {
      return false; // without a cgroup, no record of the kernel's kills is kept for Berth to read
    }

    @Override
    public List<ProcessHandle> signalAll(boolean force) {
      List<ProcessHandle> members = new ArrayList<>();
      for (ProcScan.Seen p : ProcScan.marked(MARKER + "=" + marker)) {
        ProcessHandle.of(p.pid()).ifPresent(members::add);
      }
      Containers.signal(members, force);
      return members;
    }

    @Override
    public boolean isEmpty() {
      return ProcScan.marked(MARKER + "=" + marker).isEmpty();
    }

    @Override
    public synchronized void close() {
      if (!emptied) {
        Containers.killUntilEmpty(this);
        emptied = true;
      }
    }
  }
}
