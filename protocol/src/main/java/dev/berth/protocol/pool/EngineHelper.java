package dev.berth.protocol.pool;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Berth's Python engine helper, {@code berth_engine.py}: one file, standard library only, shipped in
 * this jar. It runs a call task's {@code module:function} either once as a process of its own or, in
 * an engine, once per request line (the protocol is described in the file itself and in docs/pools.md).
 *
 * <p>The file is written, when missing, to a folder named by its content's hash, so every Berth
 * that ships the same helper uses the same file and a changed helper never overwrites one a
 * running task still reads.
 */
public final class EngineHelper {

  /** The argument that makes the helper run one call. */
  public static final String CALL = "call";

  /** The argument that makes the helper an engine. */
  public static final String ENGINE = "engine";

  /** The option naming a folder the call's modules are imported from. */
  public static final String PATH = "--path";

  /** The option naming the function an engine runs once, before its first call. */
  public static final String SETUP = "--setup";

  /**
   * The class that runs Java tasks ({@code dev.berth.task.worker.WorkerMain}); {@code WorkerMain engine}
   * is a warm Java engine speaking the same protocol as this helper's engines.
   */
  public static final String JAVA_WORKER = "dev.berth.task.worker.WorkerMain";

  private static final String RESOURCE = "berth_engine.py";
  private static final byte[] CONTENT = load();
  /** The content's hash, which names the helper's folder: computed once, as every call task's command names it. */
  private static final String HASH = hash();

  private EngineHelper() {}

  /** The helper's text. */
  public static byte[] content() {
    return CONTENT.clone();
  }

  /** The system property naming the cache folder instead of {@code $XDG_CACHE_HOME} or {@code ~/.cache}, for tests. */
  public static final String CACHE_PROPERTY = dev.berth.protocol.CacheFolder.PROPERTY;

  /** The helper's file: {@code berth_engine.py} in a folder of Berth's cache named by its content's hash. */
  public static Path file() {
    return dev.berth.protocol.CacheFolder.berth().resolve("python-" + HASH).resolve(RESOURCE);
  }

  /**
   * Writes the helper to {@link #file()} when it is not there yet.
   *
   * @return the file
   * @throws UncheckedIOException when it cannot be written
   */
  public static Path written() {
    Path file = file();
    if (Files.isRegularFile(file)) {
      return file;
    }
    try {
      Files.createDirectories(file.getParent());
      Path tmp = Files.createTempFile(file.getParent(), RESOURCE, ".tmp");
      Files.write(tmp, CONTENT);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write Berth's Python helper to " + file, e);
    }
  }

  /** Whether {@code argv} runs this helper (a call task's command), so the helper must be on disk first. */
  public static boolean runs(List<String> argv) {
    return argv.size() > 3 && CALL.equals(argv.get(3)) && argv.get(2).equals(file().toString());
  }

  /** The argument vector that runs {@code function} once with {@code kwargsJson}, importing from {@code paths}. */
  public static List<String> callCommand(String python, String function, String kwargsJson, List<String> paths) {
    List<String> argv = new java.util.ArrayList<>(List.of(python, "-u", file().toString(), CALL, function, kwargsJson));
    paths.forEach(p -> argv.addAll(List.of(PATH, p)));
    return List.copyOf(argv);
  }

  /**
   * A keyword argument's value from its text, as a spec's matrix values and a map's inputs arrive: a
   * number written as one is that number, {@code true} and {@code false} are booleans, anything else text.
   */
  public static Object typed(String text) {
    if (NUMBER.matcher(text).matches()) {
      return new java.math.BigDecimal(text);
    }
    if (text.equals("true") || text.equals("false")) {
      return Boolean.parseBoolean(text);
    }
    return text;
  }

  /** The keyword arguments {@code values} give, each {@link #typed}, as one JSON object in their order. */
  public static String kwargsJson(java.util.Map<String, String> values) {
    java.util.Map<String, Object> kwargs = new java.util.LinkedHashMap<>();
    values.forEach((k, v) -> kwargs.put(k, typed(v)));
    return dev.berth.protocol.MessageJson.write(kwargs);
  }

  private static final java.util.regex.Pattern NUMBER =
      java.util.regex.Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?");

  private static String hash() {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(CONTENT);
      return HexFormat.of().formatHex(digest, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] load() {
    try (InputStream in = EngineHelper.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("Berth's Python helper " + RESOURCE + " is missing from its jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
