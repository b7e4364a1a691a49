package dev.berth.spec;

import dev.berth.core.gpu.DeviceSelection;
import dev.berth.core.model.GroupSpec;
import dev.berth.core.model.Names;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SchedulerKeys;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.InvalidValue;
import dev.berth.core.settings.Parsers;
import dev.berth.core.settings.ValueParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Turns a parsed spec document into a {@link RunSpec}: top-level keys, config, then groups. */
final class RunSpecReader {

  /** A run or group name: letters, digits, {@code . _ -}, and not {@code .} or {@code ..}. */
  static final ValueParser<String> NAME = value -> {
    String text = Parsers.TEXT.parse(value);
    if (!Names.valid(text)) {
      throw new InvalidValue("'" + text + "' is not a valid name; use only letters, digits, '.', '_'"
          + " and '-' (and not '.' or '..'), at most " + Names.MAX_LENGTH + " characters");
    }
    return text;
  };

  private static final List<String> KEYS = List.of("name", "workdir", "gpus", "config", "groups-in-parallel", "objective",
      "executor", "slurm", "pools", "groups");

  private RunSpecReader() {}

  /**
   * Reads the spec at {@code root}.
   *
   * @param builtIns values of the {@link BuiltInPlaceholders}
   * @param configFile settings from the user's config file, below the spec's own
   * @param overrides settings from {@code --set}, above the spec's own
   * @param keys the config keys of core and of the adapters a run may use
   */
  static RunSpec read(YamlNode document, Field root, Map<String, String> builtIns, ConfigLayer configFile,
      ConfigLayer overrides, ConfigKeys keys) throws SpecException {
    if (!(document instanceof YamlNode.Mapping map)) {
      throw root.problem("must be a mapping with the keys name and groups (and optionally workdir and config),"
          + " but the file holds " + document.describe());
    }
    List<String> valid = new ArrayList<>(KEYS);
    keys.adapters().stream().filter(SettingsTable::topLevel).forEach(t -> valid.add(t.name()));
    Keys.requireKnown(map, root, valid, misplacedKeys(keys));
    String name = root.key("name").read(NAME,
        Keys.required(map, "name", root, "is required: name the run, e.g. name: quickstart"));
    YamlNode workdirNode = map.get("workdir");
    String workdir = workdirNode == null ? "berth-out/" + name : workdir(workdirNode, root.key("workdir"));
    ConfigLayer specConfig = map.get("config") == null
        ? ConfigLayer.EMPTY
        : ConfigLayer.fromNode(map.get("config"), root.key("config"), keys);
    ConfigLayer topLevel = ConfigLayer.fromTopLevel(map, root, keys);
    ConfigLayer.Combined combined =
        ConfigLayer.combine(List.of(configFile, specConfig, topLevel, overrides), keys, root.key("config"));
    SchedulerConfig config = combined.config();
    YamlNode groups = Keys.required(map, "groups", root, "is required: list the groups of tasks to run, in order");
    YamlNode parallelNode = map.get("groups-in-parallel");
    boolean parallel = parallelNode != null && root.key("groups-in-parallel").read(Parsers.BOOLEAN, parallelNode);
    SpecDependencies dependencies = new SpecDependencies();
    Pools pools = Pools.parse(map.get("pools"), root.key("pools"));
    List<GroupSpec> resolved = dependencies.resolve(
        groups(groups, root.key("groups"), config, builtIns, dependencies, pools, keys), parallel);
    RunSpec run;
    try {
      run = combined.carriedBy(new RunSpec(name, workdir, config, resolved, parallel,
          gpus(map.get("gpus"), root.key("gpus")), ReportingReader.read(map.get("objective"), root)));
    } catch (IllegalArgumentException e) {
      // The core model's checks were all made above with better messages; this is a backstop so
      // that a rule added there later still reaches the user as one line, not a stack trace.
      throw root.key("groups").problem(e.getMessage());
    }
    combined.check(run, root.key("config"));
    return run;
  }

  private static String gpus(YamlNode node, Field field) throws SpecException {
    if (node == null) {
      return DeviceSelection.DEFAULT;
    }
    String text = field.read(Parsers.TEXT, node);
    try {
      DeviceSelection.parse(text);
    } catch (IllegalArgumentException e) {
      throw field.problem(e.getMessage());
    }
    return text;
  }

  private static String workdir(YamlNode node, Field field) throws SpecException {
    String text = field.read(Parsers.TEXT, node);
    if (text.isBlank()) {
      throw field.problem("must not be empty; leave it out to use berth-out/<name>");
    }
    return text;
  }

  private static List<GroupSpec> groups(YamlNode node, Field field, SchedulerConfig config,
      Map<String, String> builtIns, SpecDependencies dependencies, Pools pools, ConfigKeys keys)
      throws SpecException {
    if (!(node instanceof YamlNode.Sequence list)) {
      throw field.problem("must be a list of groups, each with a name and tasks, but was " + node.describe());
    }
    if (list.items().isEmpty()) {
      throw field.problem("must list at least one group");
    }
    List<GroupEntry> entries = new ArrayList<>();
    Map<String, Field> names = new HashMap<>();
    for (int i = 0; i < list.items().size(); i++) {
      GroupEntry group = GroupEntry.parse(list.items().get(i), field.index(i), pools);
      GroupOptions.check(group, keys);
      Field earlier = names.putIfAbsent(group.name(), group.field());
      if (earlier != null) {
        throw group.field().key("name").problem("group name '" + group.name() + "' is already used by "
            + earlier.path() + "; group names must be unique");
      }
      entries.add(group);
    }
    checkSize(entries, field, config);
    List<GroupSpec> groups = new ArrayList<>();
    TaskIds ids = new TaskIds();
    for (GroupEntry group : entries) {
      groups.add(new GroupSpec(group.name(), group.expand(config, builtIns, ids, dependencies)));
    }
    return groups;
  }

  /**
   * Refuses a run of more tasks than {@code scheduler.max-tasks}, counted from the matrices' sizes
   * before any is expanded: each matrix is capped on its own, but a hundred of them made millions of
   * tasks, which took minutes and all of the memory before anything said no.
   */
  private static void checkSize(List<GroupEntry> groups, Field field, SchedulerConfig config) throws SpecException {
    long tasks = 0;
    for (GroupEntry group : groups) {
      for (TaskEntry task : group.tasks()) {
        tasks += task.matrix().size();
      }
    }
    if (tasks > config.maxTasks()) {
      throw field.problem(String.format(Locale.ROOT, "the run expands to %,d tasks, over the limit of %,d (%s);"
          + " split it into several runs, or raise %s", tasks, config.maxTasks(), SchedulerKeys.MAX_TASKS.key(),
          SchedulerKeys.MAX_TASKS.key()));
    }
  }

  private static Map<String, String> misplacedKeys(ConfigKeys keys) {
    Map<String, String> misplaced = new HashMap<>();
    for (String section : keys.sections()) {
      if (section.equals("slurm")) {
        continue; // a top-level slurm: block is the short form of config: {slurm: ...}
      }
      misplaced.put(section, "is a config setting; put it under 'config:'");
    }
    misplaced.put("tasks", "tasks belong to a group; write groups: [{name: main, tasks: [...]}]");
    return misplaced;
  }
}
