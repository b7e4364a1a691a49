package dev.berth.testkit;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium for tests that render Berth's pages: found on PATH (tests skip where it is
 * absent), started with a fresh profile and without network side trips, its output kept in a log.
 */
public final class HeadlessBrowser {

  private static final String NAME = "chromium";

  private final Path executable;
  private final Path dir;

  private HeadlessBrowser(Path executable, Path dir) {
    this.executable = executable;
    this.dir = dir;
  }

  /** Chromium on PATH, working in {@code dir} (profile, log); empty where none is installed. */
  public static Optional<HeadlessBrowser> find(Path dir) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String d : path.split(File.pathSeparator)) {
      Path candidate = Path.of(d, NAME);
      if (Files.isExecutable(candidate)) {
        return Optional.of(new HeadlessBrowser(candidate, dir));
      }
    }
    return Optional.empty();
  }

  /**
   * Runs the browser on {@code url} with these extra flags (e.g. {@code --screenshot=FILE},
   * {@code --dump-dom}), waiting up to 90 seconds; what it printed on stdout.
   */
  public String run(String url, String... flags) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(dir, "profile");
    List<String> argv = new ArrayList<>(List.of(executable.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--user-data-dir=" + profile));
    argv.addAll(List.of(flags));
    argv.add(url);
    Path out = Files.createTempFile(dir, "browser", ".out");
    Process p = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(log().toFile()).start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("the browser did not finish within 90s; it said:\n" + said());
    }
    return Files.readString(out);
  }

  /** What the browser wrote on stderr so far, for failure messages. */
  public String said() throws IOException {
    return Files.exists(log()) ? Files.readString(log()) : "";
  }

  private Path log() {
    return dir.resolve("browser.log");
  }
}
