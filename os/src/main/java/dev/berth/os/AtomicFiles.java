package dev.berth.os;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file so that a reader sees the old content or the new, never half of it, and the new
 * content is on disk when the call returns: written to a temporary file beside it, flushed, then
 * renamed over it. A failed write leaves no temporary file behind.
 */
public final class AtomicFiles {

  private AtomicFiles() {}

  /** Writes {@code bytes} to {@code file}, creating its folder if needed. */
  public static void write(Path file, byte[] bytes) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      try (FileChannel ch = FileChannel.open(
          tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
          ch.write(buffer);
        }
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Writes {@code text} to {@code file} as UTF-8, creating its folder if needed. */
  public static void write(Path file, String text) throws IOException {
    write(file, text.getBytes(StandardCharsets.UTF_8));
  }
}
