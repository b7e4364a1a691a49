package dev.berth.runtime.control;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;

/**
 * The lock a running scheduler holds on its run folder ({@code .berth/lock}), so that a second
 * scheduler on the same folder is refused and {@code berth cancel} can tell whether a run is live.
 * The operating system releases it when the process dies, however it dies.
 */
public final class RunLock implements AutoCloseable {

  private final FileChannel channel;
  private final FileLock lock;

  private RunLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock file of a run folder. */
  public static Path file(Path runDir) {
    return runDir.resolve(".berth").resolve("lock");
  }

  /**
   * Takes the lock and writes who holds it.
   *
   * @throws LockedException naming the holder when another process holds it
   */
  public static RunLock acquire(Path runDir, long pid, Instant now) throws IOException, LockedException {
    Path file = file(runDir);
    Files.createDirectories(file.getParent());
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      String holder = holder(ch);
      ch.close();
      throw new LockedException(runDir, holder);
    }
    ch.truncate(0);
    ch.write(ByteBuffer.wrap(("pid " + pid + ", started " + now + "\n").getBytes(StandardCharsets.UTF_8)), 0);
    ch.force(true);
    return new RunLock(ch, lock);
  }

  /** Who holds the lock of this run folder, or empty when no live run holds it. */
  public static Optional<String> holder(Path runDir) throws IOException {
    Path file = file(runDir);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock probe;
      try {
        probe = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        return Optional.of(holder(ch)); // held by this very process
      }
      if (probe == null) {
        return Optional.of(holder(ch));
      }
      probe.release();
      return Optional.empty();
    }
  }

  private static String holder(FileChannel ch) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(256);
    ch.read(buf, 0);
    String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).strip();
    return text.isEmpty() ? "another process" : text;
  }

  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }

  /** Another process holds the lock. */
  public static final class LockedException extends Exception {
    private static final long serialVersionUID = 1L;

    LockedException(Path runDir, String holder) {
      super(runDir + " is in use by another berth run (" + holder + ")");
    }
  }
}
