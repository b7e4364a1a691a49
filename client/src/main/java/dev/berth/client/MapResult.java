package dev.berth.client;

import java.util.Map;
import java.util.Optional;

/**
 * One input's outcome in a {@link Berth#map}.
 *
 * @param index the input's position, from 0
 * @param input the input as given
 * @param task how its task ended
 * @param value the task's result map when it left one ({@code result.json}, or a two-stage
 *     task's result), else its standard output as text without trailing line breaks; for a task
 *     that did not succeed, the {@link TaskFailedException} (or the exception that kept the value
 *     from being read)
 */
public record MapResult(int index, Object input, TaskResult task, Object value) {

  /** Whether the task succeeded and its value was read. */
  public boolean succeeded() {
    return !(value instanceof RuntimeException);
  }

  /** The failure, when it did not succeed. */
  public Optional<RuntimeException> failure() {
    return value instanceof RuntimeException e ? Optional.of(e) : Optional.empty();
  }

  /** The value as a result map, when it is one. */
  @SuppressWarnings("unchecked") // result maps are Map<String, Object> by construction
  public Optional<Map<String, Object>> map() {
    return value instanceof Map<?, ?> m ? Optional.of((Map<String, Object>) m) : Optional.empty();
  }

  /** The value as standard-output text, when it is text. */
  public Optional<String> text() {
    return value instanceof String s ? Optional.of(s) : Optional.empty();
  }
}
