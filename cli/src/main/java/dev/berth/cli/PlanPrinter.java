package dev.berth.cli;

import dev.berth.core.model.Dependency;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import dev.berth.session.ClusterPlan;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Prints a run's plan: the limits it will run under, the order its groups run in, and each task
 * with its resources, priority and every edge with its flags; for a dry run, the tasks that can
 * never be placed.
 */
final class PlanPrinter {

  private static final Pattern NEEDS_QUOTES = Pattern.compile("[\\s'\"\\\\$]");

  private PlanPrinter() {}

  static void print(RunSpec spec, Path runDir, PrintStream out) {
    SchedulerConfig c = spec.config();
    out.printf("run %s -> %s (gpus: %s%s)%n", spec.name(), runDir, spec.gpus(),
        spec.groupsInParallel() ? ", groups in parallel" : "");
    ClusterPlan cluster = c.onCluster() ? new ClusterPlan(spec) : null;
    boolean jobs = cluster != null && cluster.jobPerAttempt();
    if (cluster != null) {
      out.println(cluster.describe());
    }
    if (!jobs) {
      printLimits(c, out);
    }
    if (spec.groups().size() > 1) {
      out.println(spec.groupsInParallel() ? "groups run in parallel, each task as soon as its edges allow"
        : "groups run one after another: " + String.join(", then ", spec.groups().stream().map(GroupSpec::name).toList()));
    }
    int n = 0;
    Map<Long, String> sizes = new HashMap<>(); // a sweep's tasks share a few sizes: format each once
    StringBuilder line = new StringBuilder(128);
    for (GroupSpec g : spec.groups()) {
      out.printf("group %d: %s (%d task%s)%n", ++n, g.name(), g.tasks().size(), g.tasks().size() == 1 ? "" : "s");
      int width = g.tasks().stream().mapToInt(t -> t.id().value().length()).max().orElse(2);
      for (TaskSpec t : g.tasks()) {
        line.setLength(0);
        padded(line.append("  "), t.id().value(), width).append("  ");
        if (jobs) {
          line.append(cluster.sbatchOptions(t)).append("  ");
        } else {
          padded(line.append("mem "), sizes.computeIfAbsent(t.resources().memoryBytes(), ByteSize::format), 9);
          padded(line.append(" cpus "), trim(t.resources().cpus()), 5).append(' ');
          if (t.gpu().wantsGpu()) {
            line.append(t.gpu().describe()).append("  ");
          }
        }
        if (t.priority() != 0) {
          line.append("prio ").append(t.priority()).append("  ");
        }
        if (t.twoStage()) {
          line.append("two-stage  ");
        }
        if (t.retry().retries() > 0) {
          line.append("retries ").append(t.retry().retries()).append("  ");
        }
        Duration timeout = t.get(TaskKeys.TIMEOUT);
        if (!jobs && timeout != null && !timeout.isZero()) { // a job's timeout is its --time above
          line.append("timeout ").append(DurationText.format(timeout)).append("  ");
        }
        line.append(edge("after", t.after())).append(edge("follow", t.follow()));
        quoted(line, t.command());
        out.println(line);
      }
    }
  }

  /** {@code text} left-aligned in {@code width} characters, as {@code %-Ns} would write it. */
  private static StringBuilder padded(StringBuilder line, String text, int width) {
    line.append(text);
    for (int i = text.length(); i < width; i++) {
      line.append(' ');
    }
    return line;
  }

  /**
   * Prints the tasks that can never be placed and why, as a dry run finds them.
   *
   * @param where the machine they were checked against, e.g. {@code this host, gpus sim:2x24GiB}
   */
  static void printNeverPlaced(Map<TaskId, String> never, String where, PrintStream out) {
    if (never.isEmpty()) {
      out.println("every task fits " + where);
      return;
    }
    out.printf("%d task%s can never be placed on %s:%n", never.size(), never.size() == 1 ? "" : "s", where);
    never.forEach((id, why) -> out.println("  " + id + ": " + why));
  }

  /** The most tasks an edge is printed with; one to more is printed with the first few and a count. */
  private static final int EDGE_LISTED = 10;

  /**
   * An edge as the spec writes it: {@code after a,b} when it has the usual flags, else with them; an
   * edge to more than {@value #EDGE_LISTED} tasks as {@code after m-0,...,m-8,... 3991 more}.
   */
  static String edge(String kind, Optional<Dependency> dependency) {
    if (dependency.isEmpty()) {
      return "";
    }
    Dependency d = dependency.get();
    // A glob's thousands of ids on each of thousands of lines made a plan of gigabytes: the first few do.
    int shown = d.tasks().size() > EDGE_LISTED ? EDGE_LISTED - 1 : d.tasks().size();
    String tasks = String.join(",", d.tasks().subList(0, shown).stream().map(TaskId::value).toList())
        + (shown < d.tasks().size() ? ",... " + (d.tasks().size() - shown) + " more" : "");
    if (d.all() && d.success() && !d.failure()) {
      return kind + " " + tasks + "  ";
    }
    return kind + " {tasks: [" + tasks + "]" + (d.all() ? "" : ", all: false") + (d.success() ? "" : ", success: false")
        + (d.failure() ? ", failure: true" : "") + "}  ";
  }

  private static void printLimits(SchedulerConfig c, PrintStream out) {
    out.printf(
        "limits: max-process %s, cores %s, default-memory %s, utilization-limit cpu %.2f memory %.2f,"
            + " remain-limit memory %s, probe interval %s%n",
        c.maxProcess() == 0 ? "unlimited" : Integer.toString(c.maxProcess()),
        c.cores() == 0 ? "all" : Integer.toString(c.cores()),
        ByteSize.format(c.defaultMemoryBytes()),
        c.cpuUtilizationLimit(),
        c.memoryUtilizationLimit(),
        ByteSize.format(c.remainMemoryBytes()),
        DurationText.format(c.interval()));
  }


  private static String trim(double cpus) {
    return cpus == Math.rint(cpus) ? Long.toString((long) cpus) : Double.toString(cpus);
  }

  /** The arguments joined by spaces, each that a shell would split or expand in single quotes. */
  private static void quoted(StringBuilder line, List<String> argv) {
    for (int i = 0; i < argv.size(); i++) {
      String a = argv.get(i);
      line.append(i == 0 ? "" : " ")
          .append(a.isEmpty() || NEEDS_QUOTES.matcher(a).find() ? "'" + a.replace("'", "'\\''") + "'" : a);
    }
  }
}
