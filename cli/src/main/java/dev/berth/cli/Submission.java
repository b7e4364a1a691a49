package dev.berth.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One task as {@code berth submit} queued it: its id, the command as typed, the folder and
 * environment it was submitted from, the task keys its options set (as a spec writes them: text,
 * or a list of text for a key given several times) and when.
 *
 * @param id the queue id
 * @param name the name given with {@code --name}, or null
 * @param command the argument vector as typed
 * @param cwd the folder it runs in
 * @param env the environment it runs with, with {@code --env} on top
 * @param keys task keys by name, each a {@code String} or a {@code List<String>}
 * @param submittedAt when it was queued
 */
record Submission(int id, String name, List<String> command, String cwd, Map<String, String> env,
    Map<String, Object> keys, Instant submittedAt) {

  /** Made only when a submission is read: writing one needs no object mapper. */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private static final JsonFactory JSON = new JsonFactory();

  /** Copies the collections. */
  Submission {
    command = List.copyOf(command);
    env = new TreeMap<>(env);
    keys = new LinkedHashMap<>(keys);
  }

  /** The same task under another id, queued at {@code at}: what {@code berth retry} on a queue id submits. */
  Submission again(int newId, Instant at) {
    return new Submission(newId, name, command, cwd, env, keys, at);
  }

  /** The queue ids this task waits for ({@code --after}, {@code --follow}). */
  List<String> dependencies() {
    List<String> ids = new ArrayList<>();
    for (String key : List.of("after", "follow")) {
      Object v = keys.get(key);
      if (v instanceof String s) {
        ids.add(s);
      } else if (v instanceof List<?> list) {
        list.forEach(o -> ids.add(o.toString()));
      }
    }
    return ids;
  }

  /** The submission as one line of JSON, written with the streaming generator: a submit's prompt waits for it. */
  String toJson() {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(text)) {
      g.writeStartObject();
      g.writeNumberField("id", id);
      g.writeStringField("name", name);
      g.writeArrayFieldStart("command");
      for (String arg : command) {
        g.writeString(arg);
      }
      g.writeEndArray();
      g.writeStringField("cwd", cwd);
      g.writeObjectFieldStart("env");
      for (Map.Entry<String, String> e : env.entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      g.writeObjectFieldStart("keys");
      for (Map.Entry<String, Object> e : keys.entrySet()) {
        if (e.getValue() instanceof List<?> values) {
          g.writeArrayFieldStart(e.getKey());
          for (Object v : values) {
            g.writeString(v.toString());
          }
          g.writeEndArray();
        } else {
          g.writeStringField(e.getKey(), e.getValue().toString());
        }
      }
      g.writeEndObject();
      g.writeStringField("submittedAt", submittedAt.toString());
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text + "\n";
  }

  static Submission fromJson(String text) throws java.io.IOException {
    JsonNode o = Json.MAPPER.readTree(text);
    List<String> command = new ArrayList<>();
    o.get("command").forEach(n -> command.add(n.asText()));
    Map<String, String> env = new TreeMap<>();
    o.get("env").fields().forEachRemaining(f -> env.put(f.getKey(), f.getValue().asText()));
    Map<String, Object> keys = new LinkedHashMap<>();
    o.get("keys").fields().forEachRemaining(f -> {
      if (f.getValue().isArray()) {
        List<String> values = new ArrayList<>();
        f.getValue().forEach(n -> values.add(n.asText()));
        keys.put(f.getKey(), values);
      } else {
        keys.put(f.getKey(), f.getValue().asText());
      }
    });
    JsonNode name = o.get("name");
    return new Submission(o.get("id").asInt(), name == null || name.isNull() ? null : name.asText(), command,
        o.get("cwd").asText(), env, keys, Instant.parse(o.get("submittedAt").asText()));
  }
}
