package dev.berth.host;

import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.berth.spi.SharedReservationsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * The lock that serialises every user's ledger transactions: {@code flock} on the host folder itself,
 * opened read-only. Every user may take it, for {@code flock} needs no write permission, and nobody
 * but the folder's owner (or root) can remove or replace the folder to split the host in two, as
 * anyone could a lock file in a sticky folder that they made first. A process that dies lets go of
 * it with its last descriptor.
 */
final class FolderLock implements AutoCloseable {

  /** How long a transaction waits for the lock before the ledger counts as busy. */
  static final Duration WAIT = Duration.ofSeconds(10);

  private static final int O_RDONLY = 0;
  private static final int O_CLOEXEC = 02000000;
  private static final int LOCK_EX = 2;
  private static final int LOCK_NB = 4;
  private static final int EINTR = 4;
  private static final int EWOULDBLOCK = 11;

  /** The C library's calls the lock needs. */
  interface LibC extends Library {
    int open(String path, int flags);

    int flock(int fd, int operation);

    int close(int fd);
  }

  private static final class C {
    static final LibC LIB = Native.load("c", LibC.class);
  }

  private final int fd;

  private FolderLock(int fd) {
    this.fd = fd;
  }

  /**
   * Takes the folder's lock, waiting up to {@link #WAIT}; the folder at {@code dir} when it is
   * locked, for one removed and made again while this waited is another.
   *
   * @throws SharedReservationsException when it cannot be taken in time, or the folder cannot be opened
   */
  static FolderLock take(Path dir) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long pause = 100_000;
    while (true) {
      int fd = C.LIB.open(dir.toString(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) {
        throw new SharedReservationsException(dir + ": the host folder cannot be opened (errno "
            + Native.getLastError() + ")");
      }
      boolean kept = false;
      try {
        int rc = C.LIB.flock(fd, LOCK_EX | LOCK_NB);
        if (rc == 0) {
          if (sameFolder(dir, fd)) {
            kept = true;
            return new FolderLock(fd);
          }
          // the folder was replaced under the lock: lock the one there now
        } else {
          int errno = Native.getLastError();
          if (errno != EWOULDBLOCK && errno != EINTR) {
            throw new SharedReservationsException(dir + ": the host folder cannot be locked (errno " + errno + ")");
          }
        }
      } finally {
        if (!kept) {
          C.LIB.close(fd);
        }
      }
      if (System.nanoTime() > deadline) {
        throw new SharedReservationsException(dir + ": the host ledger is busy: another process has held its lock"
            + " for " + WAIT.toSeconds() + " s");
      }
      LockSupport.parkNanos(pause);
      pause = Math.min(pause * 2, 10_000_000);
    }
  }

  private static boolean sameFolder(Path dir, int fd) {
    Object locked;
    try {
      locked = Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      return true; // no /proc to tell the locked folder by: the one opened by its path just now
    }
    try {
      return Objects.equals(locked, Files.readAttributes(dir, BasicFileAttributes.class).fileKey());
    } catch (IOException e) {
      return false; // removed under the lock: the next open finds the one made again, or fails
    }
  }

  @Override
  public void close() {
    C.LIB.close(fd); // closing the only descriptor of this open lets go of its lock
  }
}
