package dev.berth.client;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.units.ByteSize;
import java.util.ArrayList;
import java.util.List;

/**
 * A dry run: every task that would run, in order, with its effective requests, as
 * {@code berth run --dry-run} lists them. Nothing is started.
 *
 * @param run the run's (or session's) name
 * @param tasks one entry per task, in submission order
 */
public record Plan(String run, List<Plan.Entry> tasks) {

  /**
   * One task's effective requests.
   *
   * @param group its group
   * @param id its id
   * @param command its argument vector
   * @param memoryBytes host memory it reserves
   * @param cpus cores it reserves
   * @param gpu what it asks of the GPUs, e.g. {@code gpu-mem 2GB on cuda:1}; empty for a CPU task
   * @param priority its priority
   * @param dependsOn the tasks named in its {@code after} and {@code follow}
   * @param twoStage whether it speaks the load/train protocol
   */
  public record Entry(String group, String id, List<String> command, long memoryBytes, double cpus, String gpu,
      int priority, List<String> dependsOn, boolean twoStage) {

    /** Copies the lists. */
    public Entry {
      command = List.copyOf(command);
      dependsOn = List.copyOf(dependsOn);
    }
  }

  /** Copies the list. */
  public Plan {
    tasks = List.copyOf(tasks);
  }

  /** The plan of a whole run. */
  public static Plan of(RunSpec spec) {
    return of(spec.name(), spec.groups());
  }

  /** The plan of these groups. */
  public static Plan of(String run, List<GroupSpec> groups) {
    List<Entry> entries = new ArrayList<>();
    for (GroupSpec g : groups) {
      for (TaskSpec t : g.tasks()) {
        entries.add(new Entry(g.name(), t.id().value(), t.command(), t.resources().memoryBytes(), t.resources().cpus(),
            t.gpu().describe(), t.priority(), t.dependsOn().stream().map(Object::toString).toList(), t.twoStage()));
      }
    }
    return new Plan(run, entries);
  }

  /** One line per task: group, id, memory, cores, GPU request, priority, dependencies and command. */
  public String render() {
    StringBuilder out = new StringBuilder("plan " + run + ": " + tasks.size() + " task" + (tasks.size() == 1 ? "" : "s") + "\n");
    int width = tasks.stream().mapToInt(e -> e.group().length() + 1 + e.id().length()).max().orElse(2);
    for (Entry e : tasks) {
      out.append(String.format("  %-" + width + "s  mem %-9s cpus %-5s %s%s%s%s%n",
          e.group() + "/" + e.id(),
          ByteSize.format(e.memoryBytes()),
          e.cpus() == Math.rint(e.cpus()) ? Long.toString((long) e.cpus()) : Double.toString(e.cpus()),
          e.gpu().isEmpty() ? "" : e.gpu() + "  ",
          e.priority() != 0 ? "prio " + e.priority() + "  " : "",
          e.dependsOn().isEmpty() ? "" : "after " + String.join(",", e.dependsOn()) + "  ",
          String.join(" ", e.command())));
    }
    return out.toString();
  }
}
