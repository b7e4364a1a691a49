package dev.berth.runtime.control;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The lock a running scheduler holds on its run folder ({@code .berth/lock}), so that a second
 * scheduler on the same folder is refused and {@code berth cancel} can tell whether a run is live.
 * The operating system releases it when the process dies, however it dies.
 */
public final class RunLock implements AutoCloseable {

  /**
   * The locks this JVM holds, by lock file. POSIX record locks belong to the process, and closing
   * any descriptor of the file releases them all, so this JVM must never open (and close) the lock
   * file of a folder it holds; it answers from here instead.
   */
  private static final Map<Path, RunLock> HELD = new ConcurrentHashMap<>();

  private final FileChannel channel;
  private final FileLock lock;
  private final Path key;
  private final String text;

  private RunLock(FileChannel channel, FileLock lock, Path key, String text) {
    this.channel = channel;
    this.lock = lock;
    this.key = key;
    this.text = text;
  }

  private static Path key(Path runDir) {
    return file(runDir).toAbsolutePath().normalize();
  }

  /** The lock file of a run folder. */
  public static Path file(Path runDir) {
    return runDir.resolve(".berth").resolve("lock");
  }

  /**
   * Takes the lock and writes who holds it. Cancel requests still in the folder were written for an
   * earlier run (a request is only written while a run holds the lock), so they are discarded here
   * and cannot cancel this one.
   *
   * @throws LockedException naming the holder when another process holds it
   */
  public static synchronized RunLock acquire(Path runDir, long pid, Instant now)
      throws IOException, LockedException {
    RunLock mine = HELD.get(key(runDir));
    if (mine != null) {
      throw new LockedException(runDir, mine.text);
    }
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
    String text = "pid " + pid + ", started " + now;
    ch.write(ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8)), 0);
    ch.force(true);
    RunLock held = new RunLock(ch, lock, key(runDir), text);
    HELD.put(held.key, held);
    discardStaleRequests(runDir);
    return held;
  }

  /**
   * Moves a run folder that holds anything aside to {@code <folder>.old-<time>} ({@code -2},
   * {@code -3}, ... when that name is taken), for a fresh start. The lock is held while the folder
   * moves, so a live run's folder is never moved and no run can take the folder in between.
   *
   * @return where the folder went, or empty when there was nothing to move
   * @throws LockedException naming the holder when a live run holds the folder
   */
  public static Optional<Path> setAside(Path runDir, long pid, Instant now) throws IOException, LockedException {
    if (!Files.isDirectory(runDir)) {
      return Optional.empty();
    }
    try (Stream<Path> entries = Files.list(runDir)) {
      if (entries.findAny().isEmpty()) {
        return Optional.empty();
      }
    }
    try (RunLock held = acquire(runDir, pid, now)) {
      String stamp = now.toString().replace(":", "").replace("-", "").replaceAll("\\.\\d+", "");
      Path aside = runDir.resolveSibling(runDir.getFileName() + ".old-" + stamp);
      for (int i = 2; Files.exists(aside); i++) {
        aside = runDir.resolveSibling(runDir.getFileName() + ".old-" + stamp + "-" + i);
      }
      Files.move(runDir, aside, StandardCopyOption.ATOMIC_MOVE);
      return Optional.of(aside);
    }
  }

  /** Who holds the lock of this run folder, or empty when no live run holds it. */
  public static Optional<String> holder(Path runDir) throws IOException {
    RunLock mine = HELD.get(key(runDir));
    if (mine != null) {
      return Optional.of(mine.text);
    }
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

  private static void discardStaleRequests(Path runDir) throws IOException {
    Path folder = CancelRequests.folder(runDir);
    if (Files.isDirectory(folder)) {
      try (DirectoryStream<Path> stale = Files.newDirectoryStream(folder, "cancel-*.json")) {
        for (Path f : stale) {
          Files.deleteIfExists(f);
        }
      }
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
    HELD.remove(key, this);
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
