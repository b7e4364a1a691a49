package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.protocol.CacheFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/** SQLite's native library is loaded from Berth's cache folder, not copied to a new temporary file at each start. */
class SqliteNativeLibraryTest {

  @TempDir Path dir;

  @Test
  void theDriverLoadsTheLibraryKeptInBerthsCacheFolder() throws Exception {
    SqliteJournal.create(dir.resolve("journal.db")).close();

    Path lib = Path.of(System.getProperty("org.sqlite.lib.path"), System.getProperty("org.sqlite.lib.name"));
    assertThat(lib).startsWith(CacheFolder.berth()).isRegularFile();
    String name = System.mapLibraryName("sqlitejdbc");
    long inJar = SQLiteJDBCLoader.class.getResource("/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS()
        + "/" + name).openConnection().getContentLengthLong();
    assertThat(Files.size(lib)).isEqualTo(inJar);
  }

  @Test
  void theDriverLooksForItsLeftoversInTheCacheFolderNotInTheSystemsTemporaryFolder() throws Exception {
    SqliteJournal.prepare();
    SqliteJournal.create(dir.resolve("journal.db")).close();

    assertThat(System.getProperty("org.sqlite.tmpdir")).isEqualTo(System.getProperty("org.sqlite.lib.path"));
  }
}
