package dev.berth.os;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Replaces a file so that a reader sees the old content or the new, never half of it, and the new
 * content is on disk when the call returns: written to a temporary file beside it, flushed, then
 * renamed over it. A failed write leaves no temporary file behind.
 */
public final class AtomicFiles {

  private static final int BUFFER = 1 << 16;

  private AtomicFiles() {}

  /** What a file is to hold, written to a stream (which the caller of {@link #write(Path, Content)} closes). */
  @FunctionalInterface
  public interface Content {
    /** Writes the whole content to {@code out}. */
    void writeTo(OutputStream out) throws IOException;
  }

  /** Writes {@code bytes} to {@code file}, creating its folder if needed. */
  public static void write(Path file, byte[] bytes) throws IOException {
    write(file, out -> out.write(bytes));
  }

  /**
   * Writes what {@code content} writes to {@code file}, creating its folder if needed: a large file is
   * written as it is made, never held whole in memory.
   */
  public static void write(Path file, Content content) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    replace(file, file.resolveSibling(file.getFileName() + ".tmp"), content);
  }

  /**
   * Writes {@code text} to {@code file} as UTF-8, creating its folder if needed, readable and writable by
   * its owner only (0600) from its first byte, for a secret: through a temporary file of its own, so
   * that two writers at once each replace the file whole.
   */
  public static void writePrivate(Path file, String text) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path tmp = Files.createTempFile(parent, "." + file.getFileName() + "-", ".tmp",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    replace(file, tmp, out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
  }

  private static void replace(Path file, Path tmp, Content content) throws IOException {
    try {
      try (FileChannel ch = FileChannel.open(
          tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
        OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), BUFFER);
        content.writeTo(new Unclosed(out));
        out.flush();
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

  /** The stream given to {@link Content}: closing it only flushes, as the channel is forced to disk after. */
  private static final class Unclosed extends FilterOutputStream {

    Unclosed(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
