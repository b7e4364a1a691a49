package dev.berth.journal;

import dev.berth.protocol.KeptLibrary;
import java.util.Optional;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * Keeps SQLite's native library in Berth's cache folder ({@code ~/.cache/berth/sqlite-VERSION/}),
 * written there once per version, and points the driver at it: left to itself the driver copies
 * the library out of its jar into a new temporary file at every start, which was a tenth of
 * Berth's start-up. Where the user chose a library ({@code org.sqlite.lib.path}), or the cache
 * cannot be written, the driver does as it always does.
 */
final class SqliteNativeLibrary {

  private static final String PATH = "org.sqlite.lib.path";
  private static final String NAME = "org.sqlite.lib.name";
  private static final String TEMPORARY = "org.sqlite.tmpdir";

  private SqliteNativeLibrary() {}

  /** Points the driver at the cached library, writing it first if needed; once per JVM, before the first connection. */
  static void prepare() {
    KeptLibrary.keepFor(PATH, () -> {
      String folder = OSInfo.getNativeLibFolderPathForCurrentOS();
      String name = System.mapLibraryName("sqlitejdbc").replace(".dylib", ".jnilib");
      return Optional.ofNullable(SQLiteJDBCLoader.class.getResource("/org/sqlite/native/" + folder + "/" + name))
          .map(url -> new KeptLibrary(url, "sqlite-" + SQLiteJDBCLoader.getVersion() + "/" + folder, name));
    }).ifPresent(library -> {
      System.setProperty(NAME, library.getFileName().toString());
      if (System.getProperty(TEMPORARY) == null) {
        // The driver lists its temporary folder at every start, to delete the copies it left there;
        // it makes none now, and the system's temporary folder can hold many thousands of files.
        System.setProperty(TEMPORARY, library.getParent().toString());
      }
    });
  }
}
