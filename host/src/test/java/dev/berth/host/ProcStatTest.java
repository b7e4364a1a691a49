package dev.berth.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcStatTest {

  private static final long START = 987_654;

  @TempDir Path proc;

  /** Writes {@code /proc/PID/stat} for a process in this state, started at {@link #START}. */
  private void process(long pid, String command, char state) throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    StringBuilder stat = new StringBuilder(pid + " (" + command + ") " + state);
    for (int field = 4; field <= 21; field++) {
      stat.append(' ').append(field);
    }
    stat.append(' ').append(START).append(" 0 0\n");
    Files.writeString(dir.resolve("stat"), stat);
  }

  @Test
  void aRunningOrSleepingProcessStartedThenIsAlive() throws IOException {
    process(41, "java", 'S');
    process(42, "a (b) c", 'R');

    assertThat(new ProcStat(proc).alive(41, START)).isTrue();
    assertThat(new ProcStat(proc).alive(42, START)).isTrue();
    assertThat(new ProcStat(proc).alive(41, START + 1)).as("a reused pid").isFalse();
    assertThat(new ProcStat(proc).alive(43, START)).as("no such process").isFalse();
  }

  @Test
  void aZombieNobodyReapedOrADyingProcessIsDead() throws IOException {
    process(41, "java", 'Z');
    process(42, "java", 'X');

    assertThat(new ProcStat(proc).alive(41, START)).isFalse();
    assertThat(new ProcStat(proc).alive(42, START)).isFalse();
    assertThat(new ProcStat(proc).startTime(41)).as("its pid is still taken").hasValue(START);
  }
}
