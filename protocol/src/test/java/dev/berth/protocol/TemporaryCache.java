package dev.berth.protocol;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Points {@link CacheFolder} at a fresh temporary folder for each test, and gives a resource to keep
 * there: a file holding {@code "native code"}.
 */
final class TemporaryCache implements BeforeEachCallback, AfterEachCallback {

  private Path home;

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    home = Files.createTempDirectory("berth-cache-test");
    System.setProperty(CacheFolder.PROPERTY, home.resolve("cache").toString());
    Files.writeString(resource(), "native code");
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    System.clearProperty(CacheFolder.PROPERTY);
    try (var files = Files.walk(home)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** The folder the test's cache is in ({@code cache/} under it). */
  Path home() {
    return home;
  }

  /** The file to keep. */
  Path resource() {
    return home.resolve("lib.so");
  }
}
