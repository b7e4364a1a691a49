package dev.berth.client;

import dev.berth.core.model.PoolSpec;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.settings.InvalidValue;
import dev.berth.protocol.pool.EngineHelper;
import dev.berth.task.worker.WorkerClasspath;
import dev.berth.task.worker.WorkerCommand;
import dev.berth.task.worker.WorkerMain;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * Makes tasks: command tasks, Java tasks and templates.
 *
 * <p>Values given for parameters and matrix variables become text this way: strings as they are; a
 * {@code double} or {@code float} as Java prints it ({@code 0.1}, {@code 1.0}) but without an
 * exponent ({@code 1.0E-4} becomes {@code 0.0001}); a {@code BigDecimal} in plain notation; any other
 * value through {@link String#valueOf}. Pass strings to control the text exactly.
 */
public final class Tasks {

  /** The class that runs a {@code BerthTask} as a task process (module {@code berth-task-api}). */
  public static final String WORKER_MAIN = WorkerMain.class.getName();

  /** The interface a Java task implements (module {@code berth-task-api}). */
  public static final String BERTH_TASK = "dev.berth.task.BerthTask";

  private Tasks() {}

  /**
   * A command task: {@code argv} runs as given, never through a shell (write {@code "sh", "-c", "..."}
   * for one), in the task's own folder {@code <workdir>/<group>/<id>/}.
   *
   * @throws IllegalArgumentException when the id is not letters, digits and {@code . _ - + = @ ,}, or argv is empty
   */
  public static TaskBuilder command(String id, String... argv) {
    return command(id, Arrays.asList(argv));
  }

  /** A command task; see {@link #command(String, String...)}. */
  public static TaskBuilder command(String id, List<String> argv) {
    return new TaskBuilder(id, argv);
  }

  /**
   * A task template: {@code {name}} in the id, the command, {@code env} values and dependencies is
   * filled once per combination of values (see {@link TaskTemplate}).
   */
  public static TaskTemplate template(String idPattern, String... argv) {
    return template(idPattern, Arrays.asList(argv));
  }

  /** A task template; see {@link #template(String, String...)}. */
  public static TaskTemplate template(String idPattern, List<String> argv) {
    return new TaskTemplate(idPattern, argv);
  }

  /**
   * A Java task: a class implementing {@code dev.berth.task.BerthTask} (module
   * {@code berth-task-api}), run as {@code java -cp <this JVM's java.class.path> }
   * {@value #WORKER_MAIN} {@code <class>}. It speaks the load/train protocol ({@code two-stage})
   * unless its own or its group's {@code twoStage(false)} says otherwise.
   *
   * @throws IllegalArgumentException when the class does not implement {@code BerthTask}, is
   *     abstract, not public, an inner class, or has no public no-argument constructor, or the
   *     worker is not on its class path
   */
  public static TaskBuilder java(String id, Class<?> taskClass) {
    return java(id, taskClass, List.of());
  }

  /** A Java task run with these JVM options, e.g. {@code -Xmx2g}; see {@link #java(String, Class)}. */
  public static TaskBuilder java(String id, Class<?> taskClass, List<String> jvmArgs) {
    checkTaskClass(taskClass);
    return command(id, javaCommand(taskClass.getName(), List.of(System.getProperty("java.class.path")), jvmArgs))
        .java(true);
  }

  /**
   * A Java task by class name with its own class path, as a spec's {@code java:}, {@code classpath:}
   * and {@code jvm-args:} write it: the entries (absolute, or relative to the task's folder) and then
   * the location of Berth's worker when this JVM can see it. Nothing is checked before the task runs.
   */
  public static TaskBuilder java(String id, String taskClassName, List<String> classpath, List<String> jvmArgs) {
    Objects.requireNonNull(taskClassName, "taskClassName");
    List<String> entries = new ArrayList<>(classpath);
    workerClasspath().stream().filter(w -> !entries.contains(w)).forEach(entries::add);
    if (entries.isEmpty()) {
      throw new IllegalArgumentException("a Java task needs a class path holding " + taskClassName + " and berth-task-api");
    }
    return command(id, javaCommand(taskClassName, entries, jvmArgs)).java(true);
  }

  /**
   * A template of calls of the Python function {@code function} ({@code package.module:function}) in
   * {@code pool}'s warm engines: each task calls it with its values as keyword arguments (a number
   * written as one, or {@code true}/{@code false}, arrives as one; anything else as text), the form a
   * spec's {@code call:} with {@code pool:} takes. The module is imported from this JVM's working
   * directory, then Python's path. {@code expand(Map.of("lr", "0.1"))} gives one task;
   * {@link Berth#map(TaskTemplate, List, MapOptions)} one per input.
   *
   * @throws IllegalArgumentException when the pool is not a Python pool or the function is not {@code module:function}
   */
  public static TaskTemplate call(String idPattern, Pool pool, String function) {
    requireLanguage(pool, PoolSpec.Language.PYTHON, "a Python function");
    try {
      TaskKeys.CALL.parse(function);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException("call " + e.rule(), e);
    }
    String python = pool.definition().python();
    List<String> paths = List.of(System.getProperty("user.dir"));
    return new TaskTemplate(idPattern, EngineHelper.callCommand(python, function, "{}", paths),
        values -> EngineHelper.callCommand(python, function, EngineHelper.kwargsJson(values), paths))
        .inPool(pool.definition().carried());
  }

  /**
   * A template of Java tasks run in {@code pool}'s warm JVMs: each task creates {@code taskClass},
   * loads and trains it in an engine, with its values as its {@code params()}; the form a spec's
   * {@code java:} with {@code pool:} takes. The engines run with this JVM's class path.
   *
   * @throws IllegalArgumentException when the pool is not a Java pool or the class cannot run as a task
   */
  public static TaskTemplate java(String idPattern, Pool pool, Class<?> taskClass) {
    requireLanguage(pool, PoolSpec.Language.JAVA, "a Java task");
    checkTaskClass(taskClass);
    return new TaskTemplate(idPattern, javaCommand(taskClass.getName(), List.of(System.getProperty("java.class.path")),
        List.of())).inPool(pool.definition().carried()).twoStage(false);
  }

  private static void requireLanguage(Pool pool, PoolSpec.Language language, String what) {
    Objects.requireNonNull(pool, "pool");
    if (pool.definition().language() != language) {
      throw new IllegalArgumentException("pool " + pool.name() + " is a " + pool.definition().language()
          + " pool; " + what + " needs a " + language + " pool");
    }
  }

  private static List<String> javaCommand(String className, List<String> classpath, List<String> jvmArgs) {
    return WorkerCommand.argv(jvmArgs, classpath, className);
  }

  /**
   * Where the worker's classes are (the task API's and the control protocol's, jars or classes
   * folders), as the task API itself tells them; empty when it cannot tell.
   */
  static List<String> workerClasspath() {
    try {
      return WorkerClasspath.entries();
    } catch (IllegalStateException e) {
      return List.of();
    }
  }

  private static void checkTaskClass(Class<?> c) {
    Objects.requireNonNull(c, "taskClass");
    if (!implementsBerthTask(c)) {
      throw new IllegalArgumentException(c.getName() + " does not implement " + BERTH_TASK
          + "; a Java task implements it (module berth-task-api)");
    }
    if (c.isInterface() || Modifier.isAbstract(c.getModifiers()) || !Modifier.isPublic(c.getModifiers())) {
      throw new IllegalArgumentException(c.getName() + " must be a public, concrete class to run as a task");
    }
    if (c.getEnclosingClass() != null && !Modifier.isStatic(c.getModifiers())) {
      throw new IllegalArgumentException(c.getName() + " is an inner class; make it static or top-level to run as a task");
    }
    try {
      if (!Modifier.isPublic(c.getConstructor().getModifiers())) {
        throw new NoSuchMethodException();
      }
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(c.getName() + " needs a public no-argument constructor to run as a task");
    }
    try {
      Class.forName(WORKER_MAIN, false, c.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(WORKER_MAIN + " is not on the class path of " + c.getName()
          + "; add the dependency dev.berth:berth-task-api");
    }
  }

  private static boolean implementsBerthTask(Class<?> c) {
    Deque<Class<?>> todo = new ArrayDeque<>();
    todo.add(c);
    while (!todo.isEmpty()) {
      Class<?> k = todo.poll();
      if (k.getName().equals(BERTH_TASK)) {
        return true;
      }
      if (k.getSuperclass() != null) {
        todo.add(k.getSuperclass());
      }
      todo.addAll(Arrays.asList(k.getInterfaces()));
    }
    return false;
  }
}
