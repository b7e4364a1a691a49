package dev.berth.runtime.exec;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import dev.berth.protocol.KeptLibrary;
import java.util.Optional;

/**
 * Keeps JNA's own native library ({@code libjnidispatch}) in Berth's cache folder
 * ({@code ~/.cache/berth/jna-VERSION/}) and points JNA at it. Left to itself JNA copies the library
 * out of its jar into a new file of {@code ~/.cache/JNA/temp} at every start, and a Berth that was
 * killed leaves that copy behind. Called before the first use of JNA (the C library's spawn, NVML,
 * OSHI); where the user chose a folder ({@code jna.boot.library.path}) or the cache cannot be
 * written, JNA does as it always does.
 */
public final class JnaLibrary {

  private JnaLibrary() {}

  /** Points JNA at the kept library, writing it first if needed; once per JVM. */
  public static void prepare() {
    // Native.VERSION is a constant, and Platform loads no library: JNA's own is not loaded before the property is set.
    KeptLibrary.keepFor("jna.boot.library.path", () -> {
      String name = System.mapLibraryName("jnidispatch").replace(".dylib", ".jnilib");
      return Optional.ofNullable(Native.class.getResource("/com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + name))
          .map(url -> new KeptLibrary(url, "jna-" + Native.VERSION + "/" + Platform.RESOURCE_PREFIX, name));
    });
  }
}
