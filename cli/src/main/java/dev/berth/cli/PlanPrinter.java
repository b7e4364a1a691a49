package dev.berth.cli;

import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.TaskSpec;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import dev.berth.slurm.SlurmKeys;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** Prints a run's expanded task list and the limits it will run under. */
final class PlanPrinter {

  private PlanPrinter() {}

  static void print(RunSpec spec, Path runDir, PrintStream out) {
    SchedulerConfig c = spec.config();
    out.printf("run %s -> %s (gpus: %s%s)%n", spec.name(), runDir, spec.gpus(),
        spec.groupsInParallel() ? ", groups in parallel" : "");
    boolean jobs = c.onCluster() && !SlurmKeys.TABLE.of(spec).allocationMode();
    ClusterPlan cluster = c.onCluster() ? new ClusterPlan(spec) : null;
    if (cluster != null) {
      out.println(cluster.describe());
    }
    if (!jobs) {
      printLimits(c, out);
    }
    int n = 0;
    for (GroupSpec g : spec.groups()) {
      out.printf("group %d: %s (%d task%s)%n", ++n, g.name(), g.tasks().size(), g.tasks().size() == 1 ? "" : "s");
      int width = g.tasks().stream().mapToInt(t -> t.id().value().length()).max().orElse(2);
      for (TaskSpec t : g.tasks()) {
        out.printf(
            "  %-" + width + "s  %s%s%s%s%n",
            t.id(),
            jobs ? cluster.sbatchOptions(t) + "  " : String.format("mem %-9s cpus %-5s %s",
                ByteSize.format(t.resources().memoryBytes()), trim(t.resources().cpus()),
                t.gpu().wantsGpu() ? t.gpu().describe() + "  " : ""),
            t.priority() != 0 ? "prio " + t.priority() + "  " : "",
            t.dependsOn().isEmpty() ? "" : "after " + String.join(",", t.dependsOn().stream().map(Object::toString).toList()) + "  ",
            String.join(" ", quoted(t.command())));
      }
    }
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

  private static List<String> quoted(List<String> argv) {
    return argv.stream().map(a -> a.isEmpty() || a.matches(".*[\\s'\"\\\\$].*") ? "'" + a.replace("'", "'\\''") + "'" : a).toList();
  }
}
