package dev.berth.runtime.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.berth.core.model.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Process-tree sums over a made-up {@code /proc}. */
class ProcTreeMemoryTest {

  private static final long PAGE = 4096;

  @TempDir Path proc;

  @Test
  void sumsTheResidentPagesOfEachTree() throws IOException {
    process(10, "task", 1, 5);
    process(11, "child (with) spaces", 10, 3);
    process(12, "grandchild", 11, 2);
    process(20, "stranger", 1, 100);

    SortedMap<TaskId, Long> memory = measure(pids("a", 10, "b", 11));

    assertThat(memory).containsExactly(entry(TaskId.of("a"), 10 * PAGE), entry(TaskId.of("b"), 5 * PAGE));
  }

  @Test
  void aTaskWhoseProcessIsGoneIsLeftOut() throws IOException {
    process(10, "task", 1, 5);

    assertThat(measure(pids("a", 10, "gone", 99))).containsOnlyKeys(TaskId.of("a"));
  }

  @Test
  void unreadableEntriesAreSkipped() throws IOException {
    process(10, "task", 1, 5);
    Files.createDirectories(proc.resolve("self"));
    Files.createDirectories(proc.resolve("11"));
    Files.writeString(proc.resolve("11").resolve("stat"), "garbage");
    Files.createDirectories(proc.resolve("12"));

    assertThat(measure(pids("a", 10, "b", 11))).containsExactly(entry(TaskId.of("a"), 5 * PAGE));
  }

  @Test
  void noTasksNeedNoScan() {
    assertThat(new ProcTreeMemory(proc.resolve("missing"), PAGE).measure(new TreeMap<>())).isEmpty();
  }

  private SortedMap<TaskId, Long> measure(SortedMap<TaskId, Long> pids) {
    return new ProcTreeMemory(proc, PAGE).measure(pids);
  }

  private void process(long pid, String name, long ppid, long rssPages) throws IOException {
    Path folder = Files.createDirectories(proc.resolve(Long.toString(pid)));
    // Fields 3 to 24 of proc(5): state, ppid, 19 numbers, then rss.
    String stat = pid + " (" + name + ") S " + ppid + " 1 1 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 500 1000000 "
        + rssPages + " 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
    Files.writeString(folder.resolve("stat"), stat);
  }

  private static SortedMap<TaskId, Long> pids(Object... taskAndPid) {
    SortedMap<TaskId, Long> pids = new TreeMap<>();
    for (int i = 0; i < taskAndPid.length; i += 2) {
      pids.put(TaskId.of((String) taskAndPid[i]), ((Number) taskAndPid[i + 1]).longValue());
    }
    return pids;
  }
}
