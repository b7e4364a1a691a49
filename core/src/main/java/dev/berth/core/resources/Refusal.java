package dev.berth.core.resources;

import dev.berth.core.lifecycle.Placement;
import java.util.Objects;

/**
 * Why a task was not placed, as data.
 *
 * @param resource the resource that was short
 * @param device where: {@code "host"} or a device id
 * @param asked what the task asked for (for a limit: the limit); {@link #ANY} when the refusal holds
 *     for every task that asks for some of the resource, whatever its amount
 * @param free what was free for it after reservations and limits (for a limit: the reading); negative
 *     when the refusal came from elsewhere (the host ledger) and the rule says the rest
 * @param reserved what Berth had already reserved for running tasks on that device
 * @param rule the rule that refused it, e.g. {@code remain-limit.memory}
 */
public record Refusal(Resource resource, String device, long asked, long free, long reserved, String rule) {

  /** The amount asked of a refusal that holds for every task asking for any of the resource. */
  public static final long ANY = 0;

  /** The start of the device of a {@link #groupJobs} refusal. */
  private static final String CLUSTER_GROUP = Placement.CLUSTER + " group ";

  /** Validates. */
  public Refusal {
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(device, "device");
    Objects.requireNonNull(rule, "rule");
  }

  /**
   * A refusal for a cap on the run's jobs in a cluster's hands, pending or running: on the
   * {@linkplain Placement#CLUSTER cluster}, {@code jobs} of at most {@code limit}.
   */
  public static Refusal clusterJobs(long limit, long jobs, String rule) {
    return new Refusal(Resource.PROCESSES, Placement.CLUSTER, limit, 0, jobs, rule);
  }

  /**
   * A refusal for a group's own cap on its jobs in a cluster's hands: on the device
   * {@code cluster group <name>}, the cluster for that group's jobs alone, {@code jobs} of at most {@code cap}.
   */
  public static Refusal groupJobs(String group, long cap, long jobs, String rule) {
    return new Refusal(Resource.PROCESSES, CLUSTER_GROUP + group, cap, 0, jobs, rule);
  }

  /** One line for people, e.g. {@code memory on host: asked 2 GiB, free 1.5 GiB (3 GiB reserved) [remain-limit.memory]}. */
  public String describe() {
    String reservedPart = reserved > 0 ? " (" + resource.format(reserved) + " reserved by Berth)" : "";
    if (resource == Resource.CPU_UTILIZATION) {
      return "cpu-utilization on " + device + ": other processes keep the CPUs " + resource.format(free)
          + " busy, limit " + resource.format(asked) + " [" + rule + "]";
    }
    if (resource == Resource.HOST_LEDGER) {
      return rule; // the ledger's own line says what it waits for
    }
    if (resource == Resource.PROCESSES && (device.equals(Placement.CLUSTER) || device.startsWith(CLUSTER_GROUP))) {
      String whose = device.equals(Placement.CLUSTER) ? "the run's"
          : "group " + device.substring(CLUSTER_GROUP.length()) + "'s";
      return "jobs on the cluster: " + reserved + " of " + whose + " pending or running, at most " + asked + " [" + rule
          + "]";
    }
    if (resource == Resource.PROCESSES) {
      return "processes: " + reserved + " running, none free [" + rule + "]";
    }
    if (asked == ANY) {
      return resource.key() + " on " + device + ": none free" + reservedPart + " [" + rule + "]";
    }
    if (free < 0) {
      return resource.key() + " on " + device + ": asked " + resource.format(asked) + " [" + rule + "]";
    }
    return resource.key() + " on " + device + ": asked " + resource.format(asked) + ", free "
        + resource.format(free) + reservedPart + " [" + rule + "]";
  }
}
