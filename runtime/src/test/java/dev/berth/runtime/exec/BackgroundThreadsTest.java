package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** A background thread takes the lowest priority, and only itself: the thread that made it keeps its own. */
class BackgroundThreadsTest {

  @Test
  void aLoweredThreadHasNiceNineteenAndTheOthersKeepTheirs() throws Exception {
    Assumptions.assumeTrue(LibC.BOUND, "the C library is not bound here");
    int before = nice();

    int lowered = CompletableFuture.supplyAsync(() -> {
      BackgroundThreads.lowerCurrent();
      return nice();
    }, r -> new Thread(r).start()).get(30, TimeUnit.SECONDS);

    assertThat(lowered).isEqualTo(BackgroundThreads.NICEST);
    assertThat(nice()).isEqualTo(before);
  }

  /** The calling thread's nice value, field 19 of its {@code /proc} stat line. */
  private static int nice() {
    try {
      String stat = Files.readString(Path.of("/proc/thread-self/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Integer.parseInt(fields[16]);
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
