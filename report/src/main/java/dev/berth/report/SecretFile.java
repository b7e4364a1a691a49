package dev.berth.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * A secret read from a file ({@code smtp.password-file}, {@code notify.url-file}), which keeps it out
 * of specs, journals and Berth's own environment. As ssh does with a private key, a file that its
 * group or other users may read or write is refused: a secret others can read is no secret. Every
 * message names the key and the file, never what the file holds.
 */
final class SecretFile {

  /** More than any password or address: a larger file is not a secret but a mistake. */
  private static final int MAX_BYTES = 64 * 1024;

  private static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
      PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
      PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

  private SecretFile() {}

  /**
   * The file's text without its final line break, as {@code echo secret > file} writes it.
   *
   * @param key the setting that names the file, for messages
   * @param name the file: absolute, relative to the current folder, or {@code ~/...} in the home folder
   * @throws IllegalArgumentException naming the key and the file when it cannot be read, is empty,
   *     or others may read it
   */
  static String read(String key, String name) {
    Path file = path(name);
    try {
      refuseOpen(key, file);
      byte[] bytes;
      try (InputStream in = Files.newInputStream(file)) {
        bytes = in.readNBytes(MAX_BYTES + 1);
      }
      if (bytes.length > MAX_BYTES) {
        throw new IllegalArgumentException(key + ": " + file + " is larger than " + MAX_BYTES + " bytes; it should hold"
            + " the secret alone");
      }
      String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
      String secret = text.endsWith("\r\n") ? text.substring(0, text.length() - 2)
          : text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
      if (secret.isBlank()) {
        throw new IllegalArgumentException(key + ": " + file + " is empty");
      }
      return secret;
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(key + ": " + file + " does not exist");
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(key + ": " + file + " is not UTF-8 text");
    } catch (IOException e) {
      throw new IllegalArgumentException(key + ": cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
    }
  }

  private static Path path(String name) {
    if (name.equals("~") || name.startsWith("~/")) {
      return Path.of(System.getProperty("user.home"), name.substring(1).replaceFirst("^/", ""));
    }
    return Path.of(name);
  }

  /** A file system without POSIX permissions has nothing to check. */
  private static void refuseOpen(String key, Path file) throws IOException {
    PosixFileAttributes attributes;
    try {
      attributes = Files.readAttributes(file, PosixFileAttributes.class);
    } catch (UnsupportedOperationException e) {
      return;
    }
    if (!attributes.isRegularFile()) {
      throw new IllegalArgumentException(key + ": " + file + " is not a file");
    }
    Set<PosixFilePermission> open = EnumSet.copyOf(attributes.permissions());
    open.retainAll(OTHERS);
    if (!open.isEmpty()) {
      throw new IllegalArgumentException(key + ": " + file + " is open to others (" + PosixFilePermissions.toString(
          attributes.permissions()) + "); a secret's file is for its owner alone: chmod 600 " + file);
    }
  }
}
