package dev.berth.runtime.contain;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Reading and writing the files of a cgroup, and finding the cgroups this process is in. */
final class CgroupFiles {

  /** Where the hierarchies are mounted on every distribution Berth knows. */
  static final Path MOUNTS = Path.of("/sys/fs/cgroup");

  /** The fixed program that joins a container: writes its own pid into each file named before {@code --}, then execs the rest. */
  private static final String JOIN =
      "while [ \"$1\" != -- ]; do { echo 0 > \"$1\"; } 2>/dev/null; shift; done; shift; exec \"$@\"";

  private CgroupFiles() {}

  /** The path of this process's cgroup in the hierarchy with {@code controller} ({@code ""} for v2). */
  static Optional<String> ownPath(String controller) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"), StandardCharsets.UTF_8)) {
        String[] parts = line.split(":", 3);
        if (parts.length == 3 && (controller.isEmpty() ? parts[0].equals("0") && parts[1].isEmpty()
            : List.of(parts[1].split(",")).contains(controller))) {
          return Optional.of(parts[2]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or no cgroups
    }
    return Optional.empty();
  }

  /** This process's cgroup folder under {@code mount}, or the mount itself when a namespace hides the path. */
  static Path own(Path mount, String path) {
    Path p = mount.resolve(path.startsWith("/") ? path.substring(1) : path);
    return Files.isDirectory(p) ? p : mount;
  }

  /** The first number in {@code file}, or in its line starting with {@code key} when a key is given. */
  static OptionalLong read(Path file, String key) {
    try {
      for (String line : lines(file)) {
        String[] words = line.trim().split("\\s+");
        if (key.isEmpty() && words.length >= 1 && !words[0].isEmpty()) {
          return words[0].equals("max") ? OptionalLong.of(Long.MAX_VALUE) : OptionalLong.of(Long.parseLong(words[0]));
        }
        if (!key.isEmpty() && words.length == 2 && words[0].equals(key)) {
          return OptionalLong.of(Long.parseLong(words[1]));
        }
      }
    } catch (IOException | RuntimeException e) {
      // a missing file (an older kernel) or a cgroup already removed
    }
    return OptionalLong.empty();
  }

  /**
   * The lines of a cgroup file, read in one go: a cgroup's files are a few short ASCII lines, and
   * the reader and decoder {@link Files#readAllLines} sets up cost more than the read, on every exit.
   */
  private static List<String> lines(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).lines().toList();
  }

  static void write(Path file, String value) throws IOException {
    Files.writeString(file, value, StandardCharsets.US_ASCII);
  }

  /** The pids in a cgroup's {@code cgroup.procs}; empty when it is gone. */
  static List<Long> procs(Path dir) {
    List<Long> pids = new ArrayList<>();
    try {
      for (String line : lines(dir.resolve("cgroup.procs"))) {
        if (!line.isBlank()) {
          pids.add(Long.parseLong(line.trim()));
        }
      }
    } catch (IOException | RuntimeException e) {
      // gone
    }
    return pids;
  }

  /** Sends every process in the cgroups SIGTERM or SIGKILL; returns the processes signalled. */
  static List<ProcessHandle> signal(List<Path> dirs, boolean force) {
    List<ProcessHandle> signalled = new ArrayList<>();
    for (Path dir : dirs) {
      for (long pid : procs(dir)) {
        ProcessHandle.of(pid).ifPresent(signalled::add);
      }
    }
    Containers.signal(signalled, force);
    return signalled;
  }

  /**
   * {@code argv} started by {@code /bin/sh} running a fixed script that moves itself into each
   * cgroup (its {@code cgroup.procs}) and then execs {@code argv} unchanged: the task's arguments
   * are never parsed by the shell, the pid stays the task's, and nothing the task forks can start
   * outside the cgroup, which writing the pid from Berth after the start could not promise.
   */
  static List<String> joining(List<Path> dirs, List<String> argv) {
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", JOIN, "berth-join"));
    dirs.forEach(d -> command.add(d.resolve("cgroup.procs").toString()));
    command.add("--");
    command.addAll(argv);
    return command;
  }

  /** Removes an empty cgroup folder; false when it could not (yet). */
  static boolean remove(Path dir) {
    try {
      Files.deleteIfExists(dir);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Removes what Berths no longer running left under {@code parent}: their {@code berth-<pid>}
   * groups and the empty task groups in them (a Berth killed with SIGKILL, or a task group the
   * kernel still held busy for a moment when its attempt ended).
   */
  static void sweepStale(Path parent) {
    try (java.util.stream.Stream<Path> groups = Files.list(parent)) {
      groups.filter(g -> g.getFileName().toString().matches("berth-[0-9]+"))
          .filter(g -> ProcessHandle.of(Long.parseLong(g.getFileName().toString().substring(6))).isEmpty())
          .forEach(CgroupFiles::removeTree);
    } catch (IOException | RuntimeException e) {
      // nothing to sweep, or not ours to
    }
  }

  /** Removes a group and its empty child groups; one that still holds a process stays. */
  static void removeTree(Path group) {
    try (java.util.stream.Stream<Path> children = Files.list(group)) {
      children.filter(Files::isDirectory).forEach(CgroupFiles::removeTree);
    } catch (IOException | RuntimeException e) {
      // gone already
    }
    remove(group);
  }

  /** Whether a folder can hold new cgroups: makes and removes a probe. */
  static boolean canCreateUnder(Path parent) {
    Path probe = parent.resolve("berth-probe-" + ProcessHandle.current().pid());
    try {
      Files.createDirectory(probe);
      return remove(probe);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
