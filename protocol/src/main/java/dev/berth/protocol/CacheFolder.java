package dev.berth.protocol;

import java.nio.file.Path;

/**
 * Berth's folder in the user's cache, for files Berth writes once and keeps (the Python engine
 * helper, SQLite's native library): {@code $XDG_CACHE_HOME/berth}, else {@code ~/.cache/berth}, or
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
}
