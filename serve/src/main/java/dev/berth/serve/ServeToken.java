package dev.berth.serve;

import dev.berth.os.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Function;

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

  /**
   * The default file: {@code .berth/serve-token} in the home folder, {@code $HOME} as {@code env} says it
   * (as the run folder checks read it), else the JVM's {@code user.home}.
   */
  public static Path defaultFile(Function<String, String> env) {
    String home = env.apply("HOME");
    return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".berth", "serve-token");
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

  /**
   * Writes the token to {@code file}, readable and writable by its user only (0600), whole or not at all:
   * into a new file beside it, then renamed over it, so a script reading it never sees half a token.
   * Called only once the server listens, so a server that could not start leaves the running one's token.
   */
  public void writeTo(Path file) throws IOException {
    AtomicFiles.writePrivate(file, value + "\n");
  }
}
