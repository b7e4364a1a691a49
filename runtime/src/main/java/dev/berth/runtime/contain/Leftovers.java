package dev.berth.runtime.contain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What tasks left running after their own process ended, when the Berth that kept their containers
 * is no longer there to empty them (it was killed, or stopped without its journal): the processes
 * that carry a task's variables, which every child inherits however it detaches, and the members
 * of the task groups that Berth made ({@code berth-<pid>/task-<n>} in each cgroup hierarchy), which
 * also hold a child that cleared its environment. A resumed run ends them, as a live Berth ends
 * what is left in an attempt's container when its process exits.
 */
public final class Leftovers {

  private static final Pattern TASK_GROUP = Pattern.compile(".*/berth-([0-9]+)/task-[0-9]+");

  private Leftovers() {}

  /**
   * Kills, until none is left, every process whose environment holds each of {@code all} and none
   * of {@code none} (entries {@code NAME=value}), with every member of the task groups of Berths no
   * longer running that those processes are in and of {@code groups}, thawing those groups when a
   * dead Berth left them frozen ({@link #thaw}); then removes those groups.
   * Reads {@code /proc}; elsewhere it does nothing.
   */
  public static void end(List<String> all, List<String> none, Collection<Path> groups) {
    if (!ProcScan.usable()) {
      return;
    }
    Set<Path> stale = new LinkedHashSet<>(groups);
    long self = ProcessHandle.current().pid();
    Containers.killUntilGone(() -> {
      // By pid: a process is found by its variables and in each hierarchy's group, and is waited for once.
      Map<Long, ProcessHandle> found = new LinkedHashMap<>();
      for (ProcScan.Seen p : ProcScan.marked(all, none)) {
        if (p.pid() != self) {
          stale.addAll(staleGroupsOf(p.pid()));
          ProcessHandle.of(p.pid()).ifPresent(h -> found.put(h.pid(), h));
        }
      }
      for (Path group : stale) {
        CgroupFiles.procs(group).stream().filter(pid -> pid != self)
            .map(ProcessHandle::of).flatMap(Optional::stream).forEach(h -> found.put(h.pid(), h));
      }
      List<ProcessHandle> killed = List.copyOf(found.values());
      Containers.signal(killed, true);
      thaw(stale); // after the signal: a frozen process thawed dies of it before it runs again
      return killed;
    });
    stale.forEach(group -> {
      CgroupFiles.remove(group);
      CgroupFiles.remove(group.getParent()); // the dead Berth's own group, once its last task group is gone
    });
  }

  /**
   * Thaws those of {@code groups} that are frozen freezer groups. A Berth freezes a task's container
   * while it signals its processes (so that none forks past the signal) and thaws it after; killed
   * in between, it leaves the group frozen for good, and a frozen process neither runs nor dies,
   * even of SIGKILL, until the group is thawed. Groups of other hierarchies are left as they are.
   */
  public static void thaw(Collection<Path> groups) {
    for (Path group : groups) {
      Path state = group.resolve("freezer.state");
      try {
        if (Files.isRegularFile(state) && !Files.readString(state).strip().equals("THAWED")) {
          CgroupFiles.write(state, "THAWED");
        }
      } catch (IOException | RuntimeException e) {
        // gone already, or not ours to thaw: its processes then die when whoever froze it thaws it
      }
    }
  }

  /** The task groups of Berths no longer running that the process is in, one per hierarchy. */
  public static List<Path> staleGroupsOf(long pid) {
    List<Path> groups = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "cgroup"), StandardCharsets.UTF_8)) {
        String[] parts = line.split(":", 3);
        Matcher m = parts.length == 3 ? TASK_GROUP.matcher(parts[2]) : null;
        if (m == null || !m.matches() || ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) {
          continue;
        }
        String relative = parts[2].substring(1);
        mountsOf(parts[1]).stream().map(mount -> mount.resolve(relative)).filter(Files::isDirectory)
            .findFirst().ifPresent(groups::add);
      }
    } catch (IOException | RuntimeException e) {
      // gone, or not Linux
    }
    return groups;
  }

  /** Where the hierarchy of a {@code /proc/PID/cgroup} line's controllers may be mounted. */
  private static List<Path> mountsOf(String controllers) {
    if (controllers.isEmpty()) {
      return List.of(CgroupFiles.MOUNTS.resolve("unified"), CgroupFiles.MOUNTS);
    }
    List<Path> mounts = new ArrayList<>();
    mounts.add(CgroupFiles.MOUNTS.resolve(controllers));
    for (String c : controllers.split(",")) {
      mounts.add(CgroupFiles.MOUNTS.resolve(c));
    }
    return mounts;
  }
}
