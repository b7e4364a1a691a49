package dev.berth.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KeptLibraryTest {

  @RegisterExtension final TemporaryCache cache = new TemporaryCache();

  private Optional<KeptLibrary> thing() {
    try {
      return Optional.of(new KeptLibrary(cache.resource().toUri().toURL(), "thing-1.2/linux", "libthing.so"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void theLibraryIsKeptAndItsFolderNamedInThePropertyOncePerJvm() {
    AtomicInteger looked = new AtomicInteger();
    String property = "thing.path.once";

    Optional<Path> kept = KeptLibrary.keepFor(property, () -> {
      looked.incrementAndGet();
      return thing();
    });
    Optional<Path> again = KeptLibrary.keepFor(property, () -> {
      looked.incrementAndGet();
      return thing();
    });

    assertThat(kept).contains(cache.home().resolve("cache/berth/thing-1.2/linux/libthing.so"));
    assertThat(System.getProperty(property)).isEqualTo(cache.home().resolve("cache/berth/thing-1.2/linux").toString());
    assertThat(again).isEmpty();
    assertThat(looked).hasValue(1);
    System.clearProperty(property);
  }

  @Test
  void aFolderTheUserChoseIsLeftAsItIs() {
    String property = "thing.path.chosen";
    System.setProperty(property, "/opt/thing");

    Optional<Path> kept = KeptLibrary.keepFor(property, this::thing);

    assertThat(kept).isEmpty();
    assertThat(System.getProperty(property)).isEqualTo("/opt/thing");
    assertThat(cache.home().resolve("cache")).doesNotExist();
    System.clearProperty(property);
  }

  @Test
  void noLibraryForThisPlatformLeavesThePropertyUnset() {
    String property = "thing.path.missing";

    Optional<Path> kept = KeptLibrary.keepFor(property, Optional::empty);

    assertThat(kept).isEmpty();
    assertThat(System.getProperty(property)).isNull();
  }
}
