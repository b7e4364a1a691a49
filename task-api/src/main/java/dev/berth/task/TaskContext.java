package dev.berth.task;

import java.nio.file.Path;
import java.util.Map;

/** What a task knows about its run, and how it publishes items. */
public interface TaskContext {

  /** The task's working folder ({@code BERTH_TASK_DIR}); the current folder when run by hand. */
  Path workdir();

  /** The task's id ({@code BERTH_TASK_ID}); {@code local} when run by hand. */
  String taskId();

  /** The attempt number, from 1 ({@code BERTH_ATTEMPT}). */
  int attempt();

  /**
   * The task's parameters, from {@code BERTH_PARAM_<NAME>}. Keys are the {@code NAME} in lower
   * case: Berth writes names in upper case with other characters than letters and digits as
   * {@code _}, so {@code lr} stays {@code lr} and {@code batch-size} becomes {@code batch_size}.
   */
  Map<String, String> params();

  /**
   * The folders of the tasks this one depends on, from {@code BERTH_DEP_<NAME>_DIR}, keyed like
   * {@link #params()}: the dependency {@code make-data} is {@code make_data}.
   */
  Map<String, String> dependencyDirs();

  /**
   * Publishes a named value to Berth at once (fedflow's {@code set_item}); callable from any
   * thread, in either stage. Values follow the rules of {@link BerthTask#train}'s result.
   */
  void setItem(String key, Object value);

  /** The value last given to {@link #setItem} for {@code key}, or null. */
  Object item(String key);

  /** A logger writing to the task's stderr log, each line marked with the task id. */
  System.Logger logger();
}
