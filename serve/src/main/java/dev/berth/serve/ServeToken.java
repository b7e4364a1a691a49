package dev.berth.serve;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secret that opens the dashboard: 32 random bytes, URL-safe, made afresh at each start and
 * written to a file only its user can read, so scripts of that user can call the API.
 */
public final class ServeToken {

  private final String value;

  private ServeToken(String value) {
    this.value = value;
  }

  /** A new random token. */
  public static ServeToken generate() {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return new ServeToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
  }

  /** A token with a known value, for tests. */
  public static ServeToken of(String value) {
    return new ServeToken(value);
  }

  /** The default file: {@code ~/.berth/serve-token}. */
  public static Path defaultFile() {
    return Path.of(System.getProperty("user.home"), ".berth", "serve-token");
  }

  /** The token's text. */
  public String value() {
    return value;
  }

  /** Whether {@code presented} is this token, compared in constant time. */
  public boolean matches(String presented) {
    return MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8),
        presented.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes the token to {@code file}, created readable and writable by its user only (0600). */
  public void writeTo(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, value + "\n", StandardOpenOption.TRUNCATE_EXISTING);
  }
}
