package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JNA's native library comes from Berth's cache folder, not from a new temporary copy at each start.
 * Checked in a JVM of its own: JNA loads its library once per JVM, and this one's other tests may
 * have loaded it already.
 */
class JnaLibraryTest {

  @TempDir Path home;

  /** The first use of JNA in a run, in a fresh JVM: prints where JNA loaded its library from. */
  public static final class FirstUse {
    public static void main(String[] args) {
      LocalProcessExecutor.prepare();
      System.out.print(System.getProperty("jnidispatch.path"));
    }
  }

  private String firstUseIn(Path cache) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process p = new ProcessBuilder(List.of(java, "-Dberth.cache=" + cache, "-cp", System.getProperty("java.class.path"),
        FirstUse.class.getName())).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void jnaLoadsItsLibraryFromTheCopyKeptInBerthsCacheFolderAndTheNextStartReusesIt() throws Exception {
    Path cache = home.resolve("cache");

    Path first = Path.of(firstUseIn(cache));
    Path second = Path.of(firstUseIn(cache));

    assertThat(first).startsWith(cache.resolve("berth").resolve("jna-" + Native.VERSION));
    assertThat(Files.isRegularFile(first)).isTrue();
    assertThat(second).isEqualTo(first);
  }
}
