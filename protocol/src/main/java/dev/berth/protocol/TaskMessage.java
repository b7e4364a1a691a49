package dev.berth.protocol;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message a task process sends to Berth. JSON values arrive as plain Java values: {@code null},
 * {@link Boolean}, {@link Number}, {@link String}, {@code List<Object>} and
 * {@code Map<String, Object>}.
 */
public sealed interface TaskMessage {

  /**
   * The first message of a connection, after Berth checked its task id and token.
   *
   * @param pid the task's process id as it reports it
   */
  record Hello(long pid) implements TaskMessage {}

  /** The task entered a phase. */
  record Status(TaskPhase status) implements TaskMessage {
    /** Rejects a null status. */
    public Status {
      Objects.requireNonNull(status, "status");
    }
  }

  /**
   * fedflow's {@code set_item}: a named value the task publishes.
   *
   * @param key the item's name
   * @param value the item's JSON value, parsed
   */
  record Item(String key, Object value) implements TaskMessage {
    /** Rejects a null key. */
    public Item {
      Objects.requireNonNull(key, "key");
    }
  }

  /** The train stage's result map; values may be null. */
  record Result(Map<String, Object> result) implements TaskMessage {
    /** Copies the map, keeping its order and its null values. */
    public Result {
      result = Collections.unmodifiableMap(new LinkedHashMap<>(result));
    }
  }

  /** The train stage succeeded; how long each stage took, in milliseconds. */
  record Finished(long loadTimeMs, long trainTimeMs) implements TaskMessage {}

  /**
   * The task ran out of memory. After {@link Stage#TRAIN} it keeps its loaded state and waits for
   * another {@code train}; after {@link Stage#LOAD} it waits for {@code exit}.
   */
  record Oom(Stage stage, String message) implements TaskMessage {
    /** Rejects a null stage; a null message becomes empty. */
    public Oom {
      Objects.requireNonNull(stage, "stage");
      message = message == null ? "" : message;
    }
  }

  /** The task's code threw; the task waits for {@code exit}. */
  record Failure(Stage stage, String message, String traceback) implements TaskMessage {
    /** Rejects a null stage; null texts become empty. */
    public Failure {
      Objects.requireNonNull(stage, "stage");
      message = message == null ? "" : message;
      traceback = traceback == null ? "" : traceback;
    }
  }
}
