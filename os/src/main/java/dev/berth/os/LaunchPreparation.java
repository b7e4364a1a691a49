package dev.berth.os;

import dev.berth.spi.LaunchException;
import dev.berth.spi.LaunchRequest;
import java.io.File;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What every executor checks and prepares before it starts an attempt, wherever it runs it: the
 * folders of the request, and whether its program can be found.
 */
public final class LaunchPreparation {

  /** Turns a reason into the executor's own {@link LaunchException}. */
  @FunctionalInterface
  public interface Failure {
    /** The exception for {@code reason}. */
    LaunchException of(String reason, Exception cause);
  }

  private LaunchPreparation() {}

  /** Creates the working directory and the folders of the output and error files. */
  public static void createFolders(LaunchRequest request, Failure failure) throws LaunchException {
    Path workdir = request.workdir().toAbsolutePath();
    createFolder(workdir, "working directory", failure);
    Path out = request.stdout().toAbsolutePath().getParent();
    Path err = request.stderr().toAbsolutePath().getParent();
    // Usually all three are the task's folder: made once, not looked up three times.
    if (!workdir.equals(out)) {
      createFolder(out, "folder of the output file", failure);
    }
    if (!workdir.equals(err) && !java.util.Objects.equals(err, out)) {
      createFolder(err, "folder of the error file", failure);
    }
  }

  /** Creates {@code folder} ({@code what}, for the error) unless it exists; null is nothing to create. */
  public static void createFolder(Path folder, String what, Failure failure) throws LaunchException {
    if (folder == null) {
      return;
    }
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw failure.of("could not create " + what + " " + folder + ": " + reason(e), e);
    }
  }

  /**
   * Whether the request's program can be started: a name with a slash is an executable file relative
   * to the working directory, any other name an executable file in a folder of the PATH the attempt
   * will have (its own {@code PATH} variable, else this process's).
   */
  public static boolean runnable(LaunchRequest request) {
    return program(request).isPresent();
  }

  /** The file {@link #runnable} finds for the request's program, absolute; empty when there is none. */
  public static Optional<Path> program(LaunchRequest request) {
    String program = request.command().get(0);
    if (program.indexOf('/') >= 0) {
      Path file = request.workdir().toAbsolutePath().resolve(program);
      return runnableFile(file) ? Optional.of(file) : Optional.empty();
    }
    String path = request.env().getOrDefault("PATH", System.getenv().getOrDefault("PATH", ""));
    return findOnPath(program, path, request.workdir().toAbsolutePath());
  }

  /** Whether {@code program} is an executable file in one of the folders of {@code path}. */
  public static boolean onPath(String program, String path) {
    return findOnPath(program, path, Path.of("").toAbsolutePath()).isPresent();
  }

  /**
   * The executable file {@code program} in the first folder of {@code path} that has one; a relative
   * folder is taken from {@code base}, as the started program's working directory, where
   * {@code execvp} looks.
   */
  static Optional<Path> findOnPath(String program, String path, Path base) {
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty()) {
        Path file = base.resolve(folder).resolve(program);
        if (runnableFile(file)) {
          return Optional.of(file);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Through {@link File}, whose checks answer false where {@link Files#isRegularFile} throws and
   * catches an exception with its stack trace: one per PATH folder without the program, per start.
   */
  private static boolean runnableFile(Path file) {
    File f = file.toFile();
    return f.isFile() && f.canExecute();
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    } else if (e instanceof AccessDeniedException) {
      return "permission denied";
    } else if (e instanceof FileAlreadyExistsException || e instanceof NotDirectoryException) {
      return "a file that is not a directory is in the way";
    } else if (e instanceof FileSystemException fse && fse.getReason() != null) {
      return fse.getReason();
    }
    return String.valueOf(e.getMessage());
  }
}
