package dev.berth.serve;

import dev.berth.session.JournalView;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the files of one run for the dashboard (task logs, the memory samples) so that a task owner
 * cannot make the dashboard read anything else: the run folder and its task folders belong to the
 * run's owner, who may replace a log with a link to, or a hard link of, a file only the dashboard's
 * user may read, and under {@code --public-read} anyone would then read it.
 *
 * <p>A file is read only when it is a regular file below the run's folder (or below the folder its
 * task folders go under, when that one has the same owner), every folder on the way is a real folder
 * and not a link, and it belongs to the owner of the run's folder. The walk opens each folder relative
 * to the one before with no link followed ({@code openat} with {@code O_NOFOLLOW}), so a folder
 * swapped for a link while it reads fails instead of leading out; the file is opened the same way and
 * looked at before and after, so a file swapped for another in between is not answered.
 */
final class RunFiles {

  /** Reads an opened file. */
  @FunctionalInterface
  interface Reader<T> {
    T read(SeekableByteChannel file) throws IOException;
  }

  /** Bytes read from a file, from offset {@code start}. */
  record Chunk(long start, byte[] bytes) {}

  private final Path runDir;
  private final Path tasksRoot;

  /** The files of the run in {@code runDir}, whose task folders go under {@code tasksRoot}. */
  RunFiles(Path runDir, Path tasksRoot) {
    this.runDir = runDir.toAbsolutePath().normalize();
    this.tasksRoot = tasksRoot.toAbsolutePath().normalize();
  }

  /** The files of a run whose task folders are in its own folder. */
  static RunFiles of(Path runDir) {
    return new RunFiles(runDir, runDir);
  }

  /** The files of a run as its journal lays them out. */
  static RunFiles of(JournalView view) {
    return new RunFiles(view.layout().runDir(), view.layout().tasksRoot());
  }

  /**
   * What {@code reader} reads from {@code file}; empty when there is no such file, it cannot be read,
   * or it is not one the dashboard may read (see the class comment).
   */
  <T> Optional<T> read(Path file, Reader<T> reader) {
    Path wanted = file.toAbsolutePath().normalize();
    Path root = wanted.startsWith(runDir) ? runDir : wanted.startsWith(tasksRoot) ? tasksRoot : null;
    if (root == null || wanted.equals(root)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> run = Files.newDirectoryStream(runDir)) {
      if (!(run instanceof SecureDirectoryStream<Path> secureRun)) {
        return Optional.empty(); // no openat here: nothing is read rather than something that may be a link
      }
      UserPrincipal owner = secureRun.getFileAttributeView(PosixFileAttributeView.class).readAttributes().owner();
      if (root.equals(runDir)) {
        return readBelow(secureRun, root.relativize(wanted), owner, reader);
      }
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(root)) {
        if (!(tasks instanceof SecureDirectoryStream<Path> secureTasks) || !owner.equals(
            secureTasks.getFileAttributeView(PosixFileAttributeView.class).readAttributes().owner())) {
          return Optional.empty();
        }
        return readBelow(secureTasks, root.relativize(wanted), owner, reader);
      }
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  /** Reads the last {@code bytes} bytes of a file. */
  static Reader<Chunk> last(int bytes) {
    return file -> range(file, Math.max(0, file.size() - bytes), bytes);
  }

  /** Reads at most {@code bytes} bytes of a file from offset {@code from}. */
  static Reader<Chunk> from(long from, int bytes) {
    return file -> range(file, from, bytes);
  }

  private static Chunk range(SeekableByteChannel file, long start, int most) throws IOException {
    int length = (int) Math.max(0, Math.min(most, file.size() - start));
    ByteBuffer buffer = ByteBuffer.allocate(length);
    file.position(start);
    while (buffer.hasRemaining() && file.read(buffer) >= 0) {
      // reads until full, or until the file ends sooner (it was truncated meanwhile)
    }
    return new Chunk(start, Arrays.copyOf(buffer.array(), buffer.position()));
  }

  private static <T> Optional<T> readBelow(SecureDirectoryStream<Path> top, Path relative, UserPrincipal owner,
      Reader<T> reader) throws IOException {
    Deque<SecureDirectoryStream<Path>> opened = new ArrayDeque<>();
    try {
      SecureDirectoryStream<Path> folder = top;
      for (int i = 0; i < relative.getNameCount() - 1; i++) {
        folder = folder.newDirectoryStream(relative.getName(i), LinkOption.NOFOLLOW_LINKS);
        opened.push(folder);
      }
      Path name = relative.getFileName();
      PosixFileAttributes before = attributes(folder, name);
      if (!before.isRegularFile() || !owner.equals(before.owner())) {
        return Optional.empty();
      }
      try (SeekableByteChannel channel =
          folder.newByteChannel(name, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
        T read = reader.read(channel);
        boolean same = Objects.equals(before.fileKey(), attributes(folder, name).fileKey());
        return same ? Optional.of(read) : Optional.empty();
      }
    } finally {
      for (SecureDirectoryStream<Path> f : opened) {
        f.close();
      }
    }
  }

  private static PosixFileAttributes attributes(SecureDirectoryStream<Path> folder, Path name) throws IOException {
    return folder.getFileAttributeView(name, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .readAttributes();
  }
}
