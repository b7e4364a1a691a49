package dev.berth.runtime.contain;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A task group of a Berth that is gone ({@code berth-<pid>/task-1}) in the cgroup v1 freezer
 * hierarchy, frozen with the processes put in it: what a Berth killed while it signalled a task's
 * container leaves behind. Closing thaws it, kills what is in it and removes it.
 */
public final class FrozenTaskGroup implements AutoCloseable {

  private final Path group;

  private FrozenTaskGroup(Path group) {
    this.group = group;
  }

  /** Whether this machine has a freezer hierarchy this process may make groups in. */
  public static boolean available() {
    Path own = own();
    return Files.isRegularFile(own.resolve("cgroup.procs")) && CgroupFiles.canCreateUnder(own);
  }

  /** A new, empty group of a Berth that is gone. */
  public static FrozenTaskGroup create() throws IOException, InterruptedException {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    return new FrozenTaskGroup(Files.createDirectories(own().resolve("berth-" + gone.pid()).resolve("task-1")));
  }

  private static Path own() {
    Path freezer = CgroupFiles.MOUNTS.resolve("freezer");
    return CgroupFiles.own(freezer, CgroupFiles.ownPath("freezer").orElse("/"));
  }

  /** Moves the processes into the group and freezes it. */
  public FrozenTaskGroup freeze(long... pids) throws IOException {
    for (long pid : pids) {
      CgroupFiles.write(group.resolve("cgroup.procs"), Long.toString(pid));
    }
    CgroupFiles.write(group.resolve("freezer.state"), "FROZEN");
    return this;
  }

  /** The group's folder. */
  public Path path() {
    return group;
  }

  @Override
  public void close() throws Exception {
    if (Files.isDirectory(group)) {
      CgroupFiles.write(group.resolve("freezer.state"), "THAWED");
      for (long pid : CgroupFiles.procs(group)) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        p.ifPresent(ProcessHandle::destroyForcibly);
        if (p.isPresent()) {
          p.get().onExit().get(30, TimeUnit.SECONDS);
        }
      }
    }
    CgroupFiles.remove(group);
    CgroupFiles.remove(group.getParent());
  }
}
