package dev.berth.slurm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the {@code jobs} array of Slurm's JSON answers ({@code squeue --json}, {@code sacct --json}). */
final class JobsJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JobsJson() {}

  /**
   * The jobs of {@code json}, as {@code command} answered it.
   *
   * @throws IllegalArgumentException when it is not JSON or has no {@code jobs} array
   */
  static Iterable<JsonNode> read(String json, String command) {
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(command + " --json answered text that is not JSON: " + e.getOriginalMessage(), e);
    }
    JsonNode jobs = root == null ? null : root.get("jobs");
    if (jobs == null || !jobs.isArray()) {
      throw new IllegalArgumentException(command + " --json answered a document without a jobs array");
    }
    return jobs;
  }
}
