package dev.berth.client;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Reporting;
import dev.berth.core.model.Names;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.settings.InvalidValue;
import dev.berth.report.NotifySettings;
import dev.berth.report.Objective;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A whole run, built in Java the way a YAML spec describes it: {@link #build()} gives the same
 * {@link RunSpec} the spec loader gives for the equivalent file. Run it in a session with
 * {@link Berth#add(GroupSpec)} per group, or print its {@link Plan}. Made by {@link Runs#named}.
 */
public final class RunBuilder {

  private final String name;
  private String workdir;
  private SchedulerConfig config = SchedulerConfig.DEFAULTS;
  private String gpus = DeviceSelection.DEFAULT;
  private boolean groupsInParallel;
  private Objective objective;
  private NotifySettings notify = NotifySettings.NONE;
  private final List<GroupDraft> groups = new ArrayList<>();

  RunBuilder(String name) {
    Names.check("run", name);
    this.name = name;
    this.workdir = "berth-out/" + name;
  }

  /** The run's folder ({@code workdir}); default {@code berth-out/<name>}. */
  public RunBuilder workdir(String path) {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("workdir must not be empty; leave it out to use berth-out/<name>");
    }
    this.workdir = path;
    return this;
  }

  /** The scheduler configuration ({@code config}); default {@link SchedulerConfig#DEFAULTS}. */
  public RunBuilder config(SchedulerConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    return this;
  }

  /**
   * Which GPUs to use ({@code gpus}): {@code auto}, {@code none}, indices such as {@code 0,2}, or
   * simulated devices such as {@code sim:2x24GiB}.
   *
   * @throws IllegalArgumentException when the text is none of these
   */
  public RunBuilder gpus(String selection) {
    DeviceSelection.parse(selection);
    this.gpus = selection;
    return this;
  }

  /** Whether tasks of all groups may mix, ordered only by their dependencies ({@code groups-in-parallel}). */
  public RunBuilder groupsInParallel(boolean parallel) {
    this.groupsInParallel = parallel;
    return this;
  }

  /** The result key sweeps are ranked by ({@code objective}). */
  public RunBuilder objective(Objective objective) {
    this.objective = Objects.requireNonNull(objective, "objective");
    return this;
  }

  /**
   * Where events are posted ({@code notify: {webhook, on}}).
   *
   * @throws IllegalArgumentException when the URL is not http(s) or an event is not run-end, task-failed or group-end
   */
  public RunBuilder notify(String webhookUrl, List<String> on) {
    Map<String, Object> written = new LinkedHashMap<>();
    written.put("notify.webhook", webhookUrl);
    written.put("notify.on", on);
    try {
      this.notify = NotifySettings.TABLE.read(written);
    } catch (InvalidValue e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    return this;
  }

  /** Appends a group (a snapshot of it); groups run in the order they are added. */
  public RunBuilder group(GroupBuilder group) {
    groups.add(group.pending());
    return this;
  }

  /**
   * The run as the core model has it.
   *
   * @throws IllegalArgumentException when a group or task breaks a rule: a repeated name or id, a
   *     dependency on no task, a dependency on a later group without {@code groupsInParallel}, a cycle
   */
  public RunSpec build() {
    List<GroupSpec> resolved = GroupDraft.resolve(groups, Map.of(), config, "run", groupsInParallel);
    RunSpec run = new RunSpec(name, workdir, config, resolved, groupsInParallel, gpus, reporting(objective));
    return NotifySettings.TABLE.into(run, notify);
  }

  /** The spec's {@code objective} as the core model has it; null when none is set. */
  static Reporting reporting(Objective objective) {
    return new Reporting(Optional.ofNullable(objective).map(Objective::key),
        objective == null || objective.goal() == Objective.Goal.MAX);
  }
}
