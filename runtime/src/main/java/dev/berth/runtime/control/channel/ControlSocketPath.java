package dev.berth.runtime.control.channel;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Where a run's control socket lives: {@code berth-<h>.sock} in the temporary directory, where
 * {@code <h>} is the first 12 hex digits of the SHA-256 of the run folder's absolute path. The
 * operating system limits a socket path to about 100 bytes, which a socket inside a deep run
 * folder could exceed; the hash keeps the name short and still unique per run folder (the run lock
 * keeps two schedulers off one folder, so two live runs never share a socket).
 */
public final class ControlSocketPath {

  /** The longest socket path, in bytes, that every supported system accepts. */
  public static final int MAX_BYTES = 100;

  private ControlSocketPath() {}

  /** The socket path for a run folder, under {@code java.io.tmpdir}. */
  public static Path forRun(Path runDir) {
    return forRun(runDir, Path.of(System.getProperty("java.io.tmpdir")));
  }

  /**
   * The socket path for a run folder under {@code tempDir}. When that would be too long (some
   * systems give each user a deep temporary folder) it falls back to {@code /tmp}.
   */
  public static Path forRun(Path runDir, Path tempDir) {
    String name = "berth-" + hash(runDir.toAbsolutePath().normalize().toString()) + ".sock";
    Path path = tempDir.toAbsolutePath().resolve(name);
    if (bytes(path) > MAX_BYTES) {
      Path shared = Path.of("/tmp");
      if (Files.isDirectory(shared)) {
        return shared.resolve(name);
      }
    }
    return path;
  }

  private static int bytes(Path path) {
    return path.toString().getBytes(StandardCharsets.UTF_8).length;
  }

  private static String hash(String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
