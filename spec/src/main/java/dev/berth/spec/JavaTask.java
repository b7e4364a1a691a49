package dev.berth.spec;

import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.task.worker.WorkerClasspath;
import dev.berth.task.worker.WorkerCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A task written in Java: {@code java: com.example.TrainTask} with {@code classpath: [...]} and
 * {@code jvm-args: [...]}. It runs in a child JVM through Berth's worker, which speaks the two-stage
 * protocol, so a crash or an OutOfMemoryError in the task never reaches the scheduler; with
 * {@code pool:} it runs in a warm JVM of that Java pool instead, its command telling the pool how to start one.
 *
 * @param className the class implementing {@code dev.berth.task.BerthTask}
 * @param classpath entries, relative to the spec's folder unless absolute
 * @param jvmArgs JVM options such as {@code -Xmx4g}
 * @param pool the Java pool whose warm JVMs run it ({@code pool:}), or null for a JVM of its own
 */
record JavaTask(Template className, List<Template> classpath, List<Template> jvmArgs, PoolSpec pool) {

  /** The task's Java settings, or null when it has no {@code java} key. */
  static JavaTask parse(YamlNode.Mapping map, Field field, Pools pools) throws SpecException {
    YamlNode java = map.get(TaskKeys.JAVA.key());
    if (java == null) {
      for (TaskKey<?> key : List.of(TaskKeys.CLASSPATH, TaskKeys.JVM_ARGS)) {
        if (map.get(key.key()) != null) {
          throw field.key(key.key()).problem("only applies to a Java task; add java: com.example.YourTask");
        }
      }
      return null;
    }
    Field name = field.key(TaskKeys.JAVA.key());
    YamlNode poolNode = map.get(TaskKeys.POOL.key());
    PoolSpec pool = poolNode == null ? null : pools.forTask(poolNode, field, PoolSpec.Language.JAVA);
    return new JavaTask(new Template(name.read(TaskKeys.JAVA::parse, java), name),
        templates(map, TaskKeys.CLASSPATH, field), templates(map, TaskKeys.JVM_ARGS, field), pool);
  }

  /** The argument vector that starts the worker JVM for this task. */
  List<String> command(Map<String, String> values) throws SpecException {
    List<String> args = new ArrayList<>();
    for (Template t : jvmArgs) {
      args.add(t.fill(values));
    }
    List<String> cp = new ArrayList<>();
    String specDir = values.getOrDefault("spec_dir", ".");
    for (Template t : classpath) {
      Path entry = Path.of(t.fill(values));
      cp.add((entry.isAbsolute() ? entry : Path.of(specDir).resolve(entry)).normalize().toString());
    }
    cp.addAll(WorkerClasspath.entries());
    return WorkerCommand.argv(args, cp, className.fill(values));
  }

  private static List<Template> templates(YamlNode.Mapping map, TaskKey<List<String>> key, Field entry)
      throws SpecException {
    YamlNode node = map.get(key.key());
    if (node == null) {
      return List.of();
    }
    Field field = entry.key(key.key());
    List<String> texts = field.read(key::parse, node);
    List<Template> out = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      out.add(new Template(texts.get(i), node instanceof YamlNode.Sequence ? field.index(i) : field));
    }
    return List.copyOf(out);
  }
}
