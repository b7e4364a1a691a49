package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The files of a run whose workdir is {@code out} in a test's folder: its spec, and the JSON it writes. */
final class RunFiles {

  private RunFiles() {}

  /** Writes {@code dir/spec.yaml}: run {@code name} with its workdir in {@code dir/out}, then {@code body}. */
  static Path spec(Path dir, String name, String body) throws IOException {
    String header = "name: " + name + "\nworkdir: " + dir.resolve("out") + "\n";
    return Files.writeString(dir.resolve("spec.yaml"), header + body);
  }

  /** The report.json of the run whose workdir is {@code dir/out}. */
  static JsonNode report(Path dir) throws IOException {
    return json(dir.resolve("out/report.json"));
  }

  /** The JSON in {@code file}. */
  static JsonNode json(Path file) throws IOException {
    return new ObjectMapper().readTree(file.toFile());
  }
}
