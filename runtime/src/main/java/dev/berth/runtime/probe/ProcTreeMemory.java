package dev.berth.runtime.probe;

import dev.berth.core.model.TaskId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Process-tree memory from Linux's {@code /proc}: one pass over {@code /proc/<pid>/stat} gives
 * every process's parent and resident pages, so any number of tasks costs one scan.
 */
final class ProcTreeMemory implements TreeMemory {

  private static final int PPID = 1;
  private static final int RSS_PAGES = 21;

  private final Path proc;
  private final long pageSize;

  ProcTreeMemory(Path proc, long pageSize) {
    this.proc = proc;
    this.pageSize = pageSize;
  }

  /** Whether {@code proc} looks like a Linux process file system. */
  static boolean usable(Path proc) {
    return Files.isReadable(proc.resolve("self").resolve("stat"));
  }

  @Override
  public SortedMap<TaskId, Long> measure(SortedMap<TaskId, Long> taskPids) {
    SortedMap<TaskId, Long> result = new TreeMap<>();
    if (taskPids.isEmpty()) {
      return result;
    }
    Map<Long, Long> rssBytes = new HashMap<>();
    Map<Long, List<Long>> children = new HashMap<>();
    scan(rssBytes, children);
    taskPids.forEach((task, pid) -> {
      if (rssBytes.containsKey(pid)) {
        result.put(task, treeBytes(pid, rssBytes, children));
      }
    });
    return result;
  }

  private void scan(Map<Long, Long> rssBytes, Map<Long, List<Long>> children) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc, ProcTreeMemory::isPidFolder)) {
      for (Path entry : entries) {
        String[] fields = statFields(entry);
        if (fields.length > RSS_PAGES) {
          long pid = Long.parseLong(entry.getFileName().toString());
          rssBytes.put(pid, Math.max(0, Long.parseLong(fields[RSS_PAGES])) * pageSize);
          children.computeIfAbsent(Long.parseLong(fields[PPID]), k -> new ArrayList<>()).add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      // A partial table is still useful; processes missing from it are reported as gone.
    }
  }

  private static String[] statFields(Path pidFolder) {
    try {
      String stat = Files.readString(pidFolder.resolve("stat"));
      // The command name is in parentheses and may itself contain spaces and parentheses.
      int end = stat.lastIndexOf(')');
      return end < 0 || end + 2 > stat.length() ? new String[0] : stat.substring(end + 2).trim().split(" ");
    } catch (IOException | RuntimeException e) {
      return new String[0]; // the process exited while we looked
    }
  }

  private static boolean isPidFolder(Path entry) {
    String name = entry.getFileName().toString();
    return !name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static long treeBytes(long root, Map<Long, Long> rssBytes, Map<Long, List<Long>> children) {
    long total = 0;
    Set<Long> seen = new HashSet<>();
    Deque<Long> todo = new ArrayDeque<>(List.of(root));
    while (!todo.isEmpty()) {
      long pid = todo.pop();
      if (seen.add(pid)) {
        total += rssBytes.getOrDefault(pid, 0L);
        todo.addAll(children.getOrDefault(pid, List.of()));
      }
    }
    return total;
  }
}
