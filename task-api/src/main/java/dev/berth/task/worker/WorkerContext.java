package dev.berth.task.worker;

import dev.berth.task.TaskContext;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/** The task's context, read from the environment Berth gives the process. */
final class WorkerContext implements TaskContext {

  private final Path workdir;
  private final String taskId;
  private final int attempt;
  private final Map<String, String> params;
  private final Map<String, String> dependencyDirs;
  private final Map<String, Object> items = Collections.synchronizedMap(new HashMap<>());
  private final BiConsumer<String, Object> publish;
  private final System.Logger logger;

  /**
   * @param publish sends an item to Berth; called on the thread that sets it
   * @param logger the task's logger
   */
  WorkerContext(Map<String, String> env, BiConsumer<String, Object> publish, System.Logger logger) {
    String dir = env.get("BERTH_TASK_DIR");
    this.workdir = (dir == null || dir.isEmpty() ? Path.of("") : Path.of(dir)).toAbsolutePath();
    this.taskId = taskId(env);
    this.attempt = attempt(env);
    this.params = named(env, "BERTH_PARAM_", "");
    this.dependencyDirs = named(env, "BERTH_DEP_", "_DIR");
    this.publish = publish;
    this.logger = logger;
  }

  static String taskId(Map<String, String> env) {
    String id = env.get("BERTH_TASK_ID");
    return id == null || id.isEmpty() ? "local" : id;
  }

  private static int attempt(Map<String, String> env) {
    try {
      return Integer.parseInt(env.getOrDefault("BERTH_ATTEMPT", "1"));
    } catch (NumberFormatException e) {
      return 1;
    }
  }

  private static Map<String, String> named(Map<String, String> env, String prefix, String suffix) {
    Map<String, String> out = new TreeMap<>();
    env.forEach((k, v) -> {
      if (k.startsWith(prefix) && k.endsWith(suffix) && k.length() > prefix.length() + suffix.length()) {
        out.put(k.substring(prefix.length(), k.length() - suffix.length()).toLowerCase(Locale.ROOT), v);
      }
    });
    return Collections.unmodifiableMap(out);
  }

  @Override
  public Path workdir() {
    return workdir;
  }

  @Override
  public String taskId() {
    return taskId;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public Map<String, String> params() {
    return params;
  }

  @Override
  public Map<String, String> dependencyDirs() {
    return dependencyDirs;
  }

  @Override
  public void setItem(String key, Object value) {
    if (key == null) {
      throw new IllegalArgumentException("an item needs a key");
    }
    items.put(key, value);
    publish.accept(key, value);
  }

  @Override
  public Object item(String key) {
    return items.get(key);
  }

  @Override
  public System.Logger logger() {
    return logger;
  }
}
