package dev.berth.runtime.exec;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import dev.berth.protocol.CacheFolder;
import java.io.IOException;
import java.net.URL;

/**
 * Keeps JNA's own native library ({@code libjnidispatch}) in Berth's cache folder
 * ({@code ~/.cache/berth/jna-VERSION/}), written there once per version, and points JNA at it. Left
 * to itself JNA copies the library out of its jar into a new file of {@code ~/.cache/JNA/temp} at
 * every start, and a Berth that was killed leaves that copy behind. Called before the first use of
 * JNA (the C library's spawn, NVML, OSHI); where the user chose a folder
 * ({@code jna.boot.library.path}) or the cache cannot be written, JNA does as it always does.
 */
public final class JnaLibrary {

  private static final String PATH = "jna.boot.library.path";
  private static boolean prepared;

  private JnaLibrary() {}

  /** Points JNA at the kept library, writing it first if needed; once per JVM. */
  public static synchronized void prepare() {
    if (prepared) {
      return;
    }
    prepared = true;
    if (System.getProperty(PATH) != null) {
      return;
    }
    try {
      // Native.VERSION is a constant, so naming it does not load JNA's library before the property is set.
      String name = System.mapLibraryName("jnidispatch").replace(".dylib", ".jnilib");
      URL inJar = Native.class.getResource("/com/sun/jna/" + Platform.RESOURCE_PREFIX + "/" + name);
      if (inJar == null) {
        return;
      }
      String folder = "jna-" + Native.VERSION + "/" + Platform.RESOURCE_PREFIX;
      System.setProperty(PATH, CacheFolder.keep(inJar, folder, name).getParent().toString());
    } catch (IOException | RuntimeException | LinkageError e) {
      // JNA's own way still works: it copies the library to a temporary file.
    }
  }
}
