package dev.berth.protocol;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A dependency's native library kept in Berth's cache folder instead of the new temporary copy the
 * dependency makes of it at every start (SQLite's driver, JNA): written there once per version, and
 * its folder named in the system property the dependency reads before it loads the library.
 *
 * @param url where the library is in the dependency's jar
 * @param folder the folder under the cache that names the dependency, its version and the platform
 * @param name the library's file name
 */
public record KeptLibrary(URL url, String folder, String name) {

  private static final Set<String> PREPARED = new HashSet<>();

  /**
   * Once per JVM and property: keeps the library {@code find} locates and sets {@code property} to
   * its folder. Nothing is done when the user set the property, when {@code find} finds no library
   * for this platform, or when the cache cannot be written: the dependency then does as it always does.
   *
   * @return the kept library's file, when this call kept it
   */
  public static synchronized Optional<Path> keepFor(String property, Supplier<Optional<KeptLibrary>> find) {
    if (!PREPARED.add(property) || System.getProperty(property) != null) {
      return Optional.empty();
    }
    try {
      Optional<KeptLibrary> library = find.get();
      if (library.isEmpty()) {
        return Optional.empty();
      }
      Path file = CacheFolder.keep(library.get().url(), library.get().folder(), library.get().name());
      System.setProperty(property, file.getParent().toString());
      return Optional.of(file);
    } catch (IOException | RuntimeException | LinkageError e) {
      return Optional.empty();
    }
  }
}
