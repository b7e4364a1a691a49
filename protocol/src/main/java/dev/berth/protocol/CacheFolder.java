package dev.berth.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Berth's folder in the user's cache, for files Berth writes once and keeps (the Python engine
 * helper, the native libraries of SQLite and JNA): {@code $XDG_CACHE_HOME/berth}, else {@code ~/.cache/berth}, or
 * under the folder the {@value #PROPERTY} system property names (for tests).
 */
public final class CacheFolder {

  /** The system property naming the cache folder instead of {@code $XDG_CACHE_HOME} or {@code ~/.cache}. */
  public static final String PROPERTY = "berth.cache";

  private CacheFolder() {}

  /** The folder; it may not exist yet. */
  public static Path berth() {
    String home = System.getProperty(PROPERTY, System.getenv("XDG_CACHE_HOME"));
    Path cache = home != null && !home.isBlank() ? Path.of(home) : Path.of(System.getProperty("user.home"), ".cache");
    return cache.resolve("berth");
  }

  /**
   * A copy of {@code resource} kept at {@code <cache>/<folder>/<name>}: written the first time, and
   * again only when its size is not the resource's (a write cut short), through a temporary file
   * renamed into place, so that a reader never finds half of it. Native libraries kept so are
   * loaded from there instead of from a new temporary copy at every start.
   *
   * @param folder a relative folder that names what the file is and its version ({@code sqlite-3.45.1.0/Linux/x86_64})
   * @throws IOException when the cache folder cannot be written
   */
  public static Path keep(URL resource, String folder, String name) throws IOException {
    Path dir = berth().resolve(folder);
    Path file = dir.resolve(name);
    long size = resource.openConnection().getContentLengthLong();
    if (!Files.isRegularFile(file) || Files.size(file) != size) {
      Files.createDirectories(dir);
      Path part = Files.createTempFile(dir, name, ".part");
      try (InputStream in = resource.openStream()) {
        Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
        Files.move(part, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(part);
      }
    }
    return file;
  }
}
