package dev.berth.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.session.AdapterTables;
import dev.berth.spec.SpecException;
import dev.berth.spec.SpecLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The queue's run and each submitted task, read by the spec reader as a spec with the queue's
 * settings ({@code ~/.berth/queue.yaml}: a spec's {@code gpus} and {@code config}) would be: task
 * options go through the same key table, defaults and checks as a spec's task keys. Only the
 * command and the environment are set as given, never read as templates, so a brace in them is
 * the user's text.
 */
final class QueueSpecs {

  /** The top-level keys of a spec that {@code queue.yaml} may hold. */
  private static final List<String> SETTINGS = List.of("gpus", "config");

  /** Runs the user's command in the folder it was submitted from, as the same process (exec keeps its pid and signals). */
  private static final String IN_FOLDER = "cd -- \"$0\" && exec \"$@\"";

  private static final Pattern TASK_FIELD = Pattern.compile("groups\\[0\\]\\.tasks\\[[0-9]+\\]\\.([a-z-]+).*");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final QueueFolder queue;
  private final Map<String, Object> settings;

  private QueueSpecs(QueueFolder queue, Map<String, Object> settings) {
    this.queue = queue;
    this.settings = settings;
  }

  /** The queue's specs with its settings file as it is now. */
  static QueueSpecs of(QueueFolder queue) throws SpecException {
    Path file = queue.settingsFile();
    Map<String, Object> settings = new LinkedHashMap<>();
    if (Files.exists(file)) {
      Object read;
      try {
        read = YAML.readValue(file.toFile(), Object.class);
      } catch (IOException e) {
        throw new SpecException(file.toString(), "", "cannot be read: " + e.getMessage());
      }
      if (read != null && !(read instanceof Map<?, ?>)) {
        throw new SpecException(file.toString(), "", "must be a mapping of gpus and config");
      }
      if (read != null) {
        for (Map.Entry<?, ?> e : ((Map<?, ?>) read).entrySet()) {
          if (!SETTINGS.contains(String.valueOf(e.getKey()))) {
            throw new SpecException(file.toString(), String.valueOf(e.getKey()),
                "is not read here: the queue's settings are a spec's gpus and config");
          }
          settings.put(String.valueOf(e.getKey()), e.getValue());
        }
      }
    }
    return new QueueSpecs(queue, settings);
  }

  /** The queue's run, with no task yet. */
  RunSpec run() throws SpecException {
    RunSpec read = load(List.of(Map.of("id", "1", "command", List.of("true"))));
    return new RunSpec(read.name(), read.workdir(), read.config(), List.of(), false, read.gpus(), read.reporting(),
        read.adapters());
  }

  /**
   * The task of {@code s}, as the queue's run holds it: its keys read as a spec's, its command run
   * in its folder with its environment.
   *
   * @throws SpecException when a key's value is not one the key takes
   */
  TaskSpec task(Submission s) throws SpecException {
    List<Map<String, Object>> tasks = new ArrayList<>();
    for (String dep : s.dependencies()) {
      if (!dep.equals(Integer.toString(s.id()))) {
        tasks.add(Map.of("id", dep, "command", List.of("true"))); // stands for a task queued before
      }
    }
    Map<String, Object> task = new LinkedHashMap<>();
    task.put("id", Integer.toString(s.id()));
    task.put("command", List.of("true"));
    task.putAll(s.keys());
    tasks.add(task);
    RunSpec read = load(tasks);
    TaskSpec parsed = read.tasks().stream().filter(t -> t.id().value().equals(Integer.toString(s.id())))
        .findFirst().orElseThrow();
    List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", IN_FOLDER, s.cwd()));
    argv.addAll(s.command());
    return parsed.toBuilder().command(argv).env(new TreeMap<>(s.env())).build();
  }

  private RunSpec load(List<Map<String, Object>> tasks) throws SpecException {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("name", QueueFolder.RUN_NAME);
    spec.put("workdir", queue.runDir().toString());
    spec.putAll(settings);
    spec.put("groups", List.of(Map.of("name", QueueFolder.GROUP, "tasks", tasks)));
    Path file;
    try {
      queue.create();
      file = Files.createTempFile(queue.dir, ".spec-", ".json");
      Files.writeString(file, JSON.writeValueAsString(spec));
    } catch (IOException e) {
      throw new SpecException(queue.dir.toString(), "", "cannot write there: " + e.getMessage());
    }
    try {
      return SpecLoader.read(file, null, List.of(), AdapterTables.ALL).run();
    } catch (SpecException e) {
      // a task key's problem is its option's; any other is the settings file's
      Matcher option = TASK_FIELD.matcher(e.field());
      if (option.matches()) {
        throw new SpecException("berth submit", "--" + option.group(1), e.rule());
      }
      throw new SpecException(queue.settingsFile().toString(), e.field(), e.rule());
    } catch (IllegalArgumentException e) { // a rule of the model across keys, such as gpus beside gpu-memory
      throw new SpecException("berth submit", "", e.getMessage());
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // a leftover temporary file is harmless
      }
    }
  }
}
