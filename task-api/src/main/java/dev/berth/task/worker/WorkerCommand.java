package dev.berth.task.worker;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The argument vector that starts a Java task: this JVM's {@code java} launcher, the task's JVM
 * options, the class path and {@link WorkerMain} with the task's class. A spec's {@code java:} task
 * and the Java API's {@code Tasks.java} both start their tasks with it.
 */
public final class WorkerCommand {

  private WorkerCommand() {}

  /**
   * The command.
   *
   * @param jvmArgs options such as {@code -Xmx4g}
   * @param classpath the entries, which must include the task's classes and {@link WorkerClasspath#entries()}
   * @param taskClass the class implementing {@code dev.berth.task.BerthTask}
   */
  public static List<String> argv(List<String> jvmArgs, List<String> classpath, String taskClass) {
    List<String> argv = new ArrayList<>();
    argv.add(javaExecutable());
    argv.addAll(jvmArgs);
    argv.add("-cp");
    argv.add(String.join(File.pathSeparator, classpath));
    argv.add(WorkerMain.class.getName());
    argv.add(taskClass);
    return List.copyOf(argv);
  }

  /** The {@code java} launcher of this JVM. */
  public static String javaExecutable() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
