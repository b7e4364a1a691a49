package dev.berth.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CacheFolderTest {

  @RegisterExtension final TemporaryCache cache = new TemporaryCache();

  private URL url() throws IOException {
    return cache.resource().toUri().toURL();
  }

  @Test
  void aResourceIsCopiedIntoItsVersionedFolderOnceAndNoPartIsLeft() throws IOException {
    Path kept = CacheFolder.keep(url(), "thing-1.2/linux", "libthing.so");

    assertThat(kept).isEqualTo(cache.home().resolve("cache/berth/thing-1.2/linux/libthing.so"));
    assertThat(Files.readString(kept)).isEqualTo("native code");
    try (var files = Files.list(kept.getParent())) {
      assertThat(files).containsExactly(kept);
    }
  }

  @Test
  void aCopyOfTheRightSizeIsKeptAsItIsOnTheNextStart() throws IOException {
    Path kept = CacheFolder.keep(url(), "thing-1.2", "libthing.so");
    FileTime written = FileTime.fromMillis(1_000_000);
    Files.setLastModifiedTime(kept, written);

    CacheFolder.keep(url(), "thing-1.2", "libthing.so");

    assertThat(Files.getLastModifiedTime(kept)).isEqualTo(written);
  }

  @Test
  void aCopyCutShortIsWrittenAgain() throws IOException {
    Path kept = CacheFolder.keep(url(), "thing-1.2", "libthing.so");
    Files.writeString(kept, "native");

    CacheFolder.keep(url(), "thing-1.2", "libthing.so");

    assertThat(Files.readString(kept)).isEqualTo("native code");
  }
}
