package dev.berth.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The real Slurm outputs under {@code recorded/} on the test class path (see its README). */
final class Recordings {

  private Recordings() {}

  static String read(String name) {
    try (InputStream in = Recordings.class.getResourceAsStream("/recorded/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no recording " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
