package dev.berth.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SpecErrorsTest {

  private static final String SPEC = "spec.yaml";
  private static final String CONFIG = "config.yaml";
  private static final String COMMAND_LINE = "command line";

  /**
   * One bad input and the error it must produce.
   *
   * @param file which source the error must name: SPEC, CONFIG or COMMAND_LINE
   */
  record BadInput(String name, String spec, String config, List<String> overrides,
      String file, String field, String phrase) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static BadInput spec(String name, String spec, String field, String phrase) {
    return new BadInput(name, spec, null, List.of(), SPEC, field, phrase);
  }

  private static BadInput task(String name, String taskYaml, String field, String phrase) {
    return spec(name, SpecFiles.oneGroup(taskYaml), field, phrase);
  }

  /** A spec whose one group sets {@code slurm: <slurmYaml>} for its one task. */
  private static BadInput groupSlurm(String name, String slurmYaml, String field, String phrase) {
    return spec(name, "name: run\ngroups:\n  - name: g\n    slurm: " + slurmYaml
        + "\n    tasks: [{id: a, command: [x]}]\n", field, phrase);
  }

  private static BadInput config(String name, String configYaml, String field, String phrase) {
    return new BadInput(name, SpecFiles.oneGroup("- {id: a, command: [x]}"), configYaml, List.of(),
        CONFIG, field, phrase);
  }

  private static BadInput set(String name, String override, String field, String phrase) {
    return new BadInput(name, SpecFiles.oneGroup("- {id: a, command: [x]}"), null, List.of(override),
        COMMAND_LINE, field, phrase);
  }

  static Stream<BadInput> badInputs() {
    String ok = "- {id: a, command: [x]}";
    return Stream.of(
        // The file as a whole
        spec("empty file", "", "", "the file is empty"),
        spec("comments only", "# nothing\n", "", "the file is empty"),
        spec("top level is a list", "- a\n- b\n", "", "must be a mapping with the keys name and groups"),
        spec("yaml syntax error", "name: run\ngroups:\n  - name: a\n   tasks: []\n", "line 4, column 4",
            "check the indentation"),
        spec("unclosed flow list", "name: run\ngroups: [\n", "line 3, column 1", "not valid YAML"),
        spec("key written twice", "name: a\nname: b\ngroups: []\n", "name", "is set twice (lines 1 and 2)"),
        spec("yaml alias", "name: run\nx: &d {id: a}\ngroups: [*d]\n", "groups[0]", "aliases are not supported"),
        spec("two documents", "name: a\n---\nname: b\n", "line 3", "second YAML document"),
        // Top level
        spec("missing name", "groups: [{name: g, tasks: [{id: a, command: [x]}]}]\n", "name", "is required"),
        spec("bad name", "name: my run\ngroups: []\n", "name", "'my run' is not a valid name"),
        spec("dot-dot name", "name: ..\ngroups: []\n", "name", "is not a valid name"),
        spec("missing groups", "name: run\n", "groups", "is required"),
        spec("empty groups", "name: run\ngroups: []\n", "groups", "at least one group"),
        spec("groups is a mapping", "name: run\ngroups: {a: 1}\n", "groups", "must be a list of groups"),
        spec("unknown top-level key", "name: run\ngrops: []\n", "grops", "did you mean 'groups'?"),
        spec("config section at top level", "name: run\nscheduler: {max-process: 2}\ngroups: []\n", "scheduler",
            "put it under 'config:'"),
        spec("empty workdir", "name: run\nworkdir: ''\ngroups: []\n", "workdir", "must not be empty"),
        // Groups
        spec("group without name", "name: run\ngroups: [{tasks: [{id: a, command: [x]}]}]\n", "groups[0].name",
            "is required"),
        spec("empty tasks", "name: run\ngroups: [{name: g, tasks: []}]\n", "groups[0].tasks", "at least one task"),
        spec("group without tasks", "name: run\ngroups: [{name: g}]\n", "groups[0].tasks", "is required"),
        spec("unknown group key", "name: run\ngroups: [{name: g, task: [{id: a, command: [x]}]}]\n",
            "groups[0].task", "did you mean 'tasks'?"),
        spec("task key on a group", "name: run\ngroups: [{name: g, command: [x], tasks: [{id: a, command: [x]}]}]\n",
            "groups[0].command", "is a task key"),
        spec("duplicate group name",
            "name: run\ngroups: [{name: g, tasks: [{id: a, command: [x]}]}, {name: g, tasks: [{id: b, command: [x]}]}]\n",
            "groups[1].name", "already used by groups[0]"),
        spec("duplicate id across groups",
            "name: run\ngroups: [{name: prep, tasks: [{id: a, command: [x]}]}, {name: train, tasks: [{id: a, command: [x]}]}]\n",
            "groups[1].tasks[0].id", "used in groups 'prep' (groups[0].tasks[0]) and 'train'"),
        spec("bad group memory", "name: run\ngroups: [{name: g, memory: lots, tasks: [{id: a, command: [x]}]}]\n",
            "groups[0].memory", "'lots' is not a memory size"),
        // Tasks
        task("duplicate id in a group", ok + "\n- {id: a, command: [y]}", "groups[0].tasks[1].id",
            "already used by groups[0].tasks[0]"),
        task("missing id", "- {command: [x]}", "groups[0].tasks[0].id", "is required"),
        task("enforce-memory not a boolean", "- {id: a, command: [x], enforce-memory: sometimes}",
            "groups[0].tasks[0].enforce-memory", "true or false"),
        task("missing command", "- {id: a}", "groups[0].tasks[0].command", "is required"),
        task("unknown task key", "- {id: a, command: [x], memroy: 1GB}", "groups[0].tasks[0].memroy",
            "did you mean 'memory'?"),
        task("name instead of id", "- {name: a, command: [x]}", "groups[0].tasks[0].name", "named by 'id'"),
        task("string command", "- {id: a, command: python3 train.py}", "groups[0].tasks[0].command",
            "[sh, -c, \"...\"]"),
        task("empty command", "- {id: a, command: []}", "groups[0].tasks[0].command", "must not be empty"),
        task("nested list in command", "- {id: a, command: [x, [y]]}", "groups[0].tasks[0].command[1]",
            "must be a single argument but was a list"),
        task("NUL inside an argument", "- {id: a, command: [echo, \"a\\0b\"]}", "groups[0].tasks[0].command[1]",
            "task a: argument 1 holds a NUL character"),
        task("NUL inside an argument from a matrix", "- {id: a, command: [echo, 'x={x}'], matrix: {x: [\"1\\0\"]}}",
            "groups[0].tasks[0].command[1]", "task a: argument 1 holds a NUL character"),
        task("NUL inside an environment value", "- {id: a, command: [x], env: {SEED: \"1\\0\"}}",
            "groups[0].tasks[0].env.SEED", "environment variable SEED holds a NUL character"),
        task("invalid id", "- {id: 'a/b', command: [x]}", "groups[0].tasks[0].id", "is not a valid task id"),
        task("memory with unknown unit", "- {id: a, command: [x], memory: 12 XB}", "groups[0].tasks[0].memory",
            "'12 XB' has unknown unit 'XB'; use one of"),
        task("negative memory", "- {id: a, command: [x], memory: -1}", "groups[0].tasks[0].memory",
            "'-1' is not a memory size"),
        task("memory as words", "- {id: a, command: [x], memory: lots}", "groups[0].tasks[0].memory",
            "'lots' is not a memory size"),
        task("memory as a list", "- {id: a, command: [x], memory: [1GB]}", "groups[0].tasks[0].memory",
            "must be a memory size such as 512MiB or 2GB but was a list"),
        task("fractional bytes", "- {id: a, command: [x], memory: 1.5}", "groups[0].tasks[0].memory",
            "must be whole"),
        task("cpus as words", "- {id: a, command: [x], cpus: two}", "groups[0].tasks[0].cpus",
            "must be a number >= 0 but was 'two'"),
        task("negative cpus", "- {id: a, command: [x], cpus: -1}", "groups[0].tasks[0].cpus",
            "must be a number >= 0 but was '-1'"),
        task("fractional priority", "- {id: a, command: [x], priority: 1.5}", "groups[0].tasks[0].priority",
            "must be a whole number but was '1.5'"),
        task("env as a list", "- {id: a, command: [x], env: [A=1]}", "groups[0].tasks[0].env",
            "must be a mapping of variable names to values"),
        task("env value as a list", "- {id: a, command: [x], env: {A: [1]}}", "groups[0].tasks[0].env.A",
            "must be a single value"),
        task("bad env name", "- {id: a, command: [x], env: {1A: x}}", "groups[0].tasks[0].env.1A",
            "not a valid environment variable name"),
        // Matrices
        task("matrix with an empty list", "- {id: 't-{lr}', command: [x], matrix: {lr: []}}",
            "groups[0].tasks[0].matrix.lr", "at least one value"),
        task("matrix value that is not a list", "- {id: 't-{lr}', command: [x], matrix: {lr: 0.1}}",
            "groups[0].tasks[0].matrix.lr", "must be a list of values"),
        task("matrix that is a list", "- {id: 't-{lr}', command: [x], matrix: [0.1]}", "groups[0].tasks[0].matrix",
            "must be a mapping of variable names"),
        task("nested matrix value", "- {id: 't-{lr}', command: [x], matrix: {lr: [[1]]}}",
            "groups[0].tasks[0].matrix.lr[0]", "must be a single value"),
        task("repeated matrix value", "- {id: 't-{lr}', command: [x], matrix: {lr: [1, 1]}}",
            "groups[0].tasks[0].matrix.lr[1]", "listed twice"),
        task("unknown placeholder", "- {id: 't-{lr}', command: [x, '{seed}'], matrix: {lr: [1]}}",
            "groups[0].tasks[0].command[1]", "placeholder '{seed}' is not a matrix variable"),
        task("misspelt placeholder", "- {id: 't-{rl}', command: [x], matrix: {lr: [1]}}",
            "groups[0].tasks[0].id", "did you mean '{lr}'?"),
        task("placeholder without a matrix", "- {id: a, command: [x], env: {X: '{y}'}}",
            "groups[0].tasks[0].env.X", "the task has no matrix"),
        task("matrix variable named like a built-in", "- {id: a, command: [x], matrix: {spec_dir: [1]}}",
            "groups[0].tasks[0].matrix.spec_dir", "is a built-in placeholder"),
        task("misspelt built-in placeholder", "- {id: a, command: ['{specdir}/x.py']}",
            "groups[0].tasks[0].command[0]", "did you mean '{spec_dir}'?"),
        task("colliding matrix ids", "- {id: 't-{lr}', command: [x], matrix: {lr: [1, 2], seed: [1, 2]}}",
            "groups[0].tasks[0].id", "same id 't-1'"),
        task("colliding matrix ids hint", "- {id: 't-{lr}', command: [x], matrix: {lr: [1, 2], seed: [1, 2]}}",
            "groups[0].tasks[0].id", "add {seed} to the id"),
        task("matrix value that makes a bad id", "- {id: 't-{p}', command: [x], matrix: {p: [a/b]}}",
            "groups[0].tasks[0].id", "'t-a/b' (from p=a/b) is not a valid task id"),
        // Config in the spec
        spec("bad duration", "name: run\nconfig: {scheduler: {interval: soon}}\ngroups: []\n",
            "config.scheduler.interval", "'soon' is not a duration"),
        spec("zero interval", "name: run\nconfig: {scheduler: {interval: 0s}}\ngroups: []\n",
            "config.scheduler.interval", "must be > 0 but was '0s'"),
        spec("cpu limit out of range", "name: run\nconfig: {utilization-limit: {cpu: 1.5}}\ngroups: []\n",
            "config.utilization-limit.cpu", "must be a fraction in (0, 1] but was '1.5'"),
        spec("negative max-process", "name: run\nconfig: {scheduler.max-process: -2}\ngroups: []\n",
            "config.scheduler.max-process", "must be a whole number >= 0 but was '-2'"),
        spec("unknown config key", "name: run\nconfig: {scheduler: {max-proces: 2}}\ngroups: []\n",
            "config.scheduler.max-proces", "did you mean 'max-process'?"),
        spec("unknown flat config key", "name: run\nconfig: {scheduler.max-proces: 2}\ngroups: []\n",
            "config.scheduler.max-proces", "did you mean 'scheduler.max-process'?"),
        spec("config key without its section", "name: run\nconfig: {max-process: 2}\ngroups: []\n",
            "config.max-process", "did you mean 'scheduler.max-process'?"),
        spec("ambiguous key without its section", "name: run\nconfig: {memory: 1GB}\ngroups: []\n", "config.memory",
            "did you mean 'utilization-limit.memory' or 'remain-limit.memory' or 'slurm.memory'?"),
        spec("section given a value", "name: run\nconfig: {scheduler: 4}\ngroups: []\n", "config.scheduler",
            "must be a mapping of settings such as scheduler.max-process"),
        spec("key set nested and flat", "name: run\nconfig: {scheduler: {cores: 1}, scheduler.cores: 2}\ngroups: []\n",
            "config.scheduler.cores", "is set twice, once nested under its section and once as a dotted key"),
        spec("unknown smtp key", "name: run\nconfig: {smtp: {server: mail}}\ngroups: []\n", "config.smtp.server",
            "server-host"),
        spec("unsupported auto-adjust", "name: run\nconfig: {scheduler: {auto-adjust: true}}\ngroups: []\n",
            "config.scheduler.auto-adjust", "is not supported by this version of Berth"),
        spec("retired learn-usage", "name: run\nconfig: {scheduler: {learn-usage: max}}\ngroups: []\n",
            "config.scheduler.learn-usage", "set scheduler.learn-gpu-memory: on or off instead"),
        spec("unsupported task section", "name: run\nconfig: {task: {directory-grouping: false}}\ngroups: []\n",
            "config.task", "is not supported by this version of Berth"),
        groupSlurm("bad group slurm partition", "{partition: 'a b'}", "groups[0].slurm.partition", "must be one word"),
        groupSlurm("group slurm key only a run sets", "{mode: allocation}", "groups[0].slurm.mode",
            "unknown key 'mode'"),
        task("bad task slurm time", "- {id: a, command: [x], slurm: {time: soon}}", "groups[0].tasks[0].slurm.time",
            "duration"),
        groupSlurm("bad group slurm signal", "{signal: KILL@1m}", "groups[0].slurm.signal", "[SIG@]DURATION"),
        groupSlurm("negative group slurm max-jobs", "{max-jobs: -1}", "groups[0].slurm.max-jobs", ">= 0"),
        task("task slurm max-jobs", "- {id: a, command: [x], slurm: {max-jobs: 2}}",
            "groups[0].tasks[0].slurm.max-jobs", "set it under the group's slurm:"),
        groupSlurm("group slurm not a mapping", "gpu", "groups[0].slurm", "must be a mapping"),
        spec("unsupported workdir in config", "name: run\nconfig: {workdir: out}\ngroups: []\n", "config.workdir",
            "set 'workdir' at the top level of the spec"),
        // The config file
        config("config file out of range", "scheduler: {max-process: -1}\n", "scheduler.max-process", ">= 0"),
        config("config file unknown flat key", "utilization-limit.cpus: 0.5\n", "utilization-limit.cpus",
            "did you mean 'utilization-limit.cpu'?"),
        config("config file unsupported key", "gpu-priority: {cuda:0: 1}\n", "gpu-priority",
            "is not supported by this version of Berth"),
        config("config file syntax error", "scheduler: {max-process: 4\n", "line 2, column 1", "not valid YAML"),
        config("config file with a spec in it", "config: {scheduler: {max-process: 4}}\n", "config",
            "without a 'config:' around them"),
        config("config file unknown section", "schedule: {max-process: 4}\n", "schedule", "did you mean 'scheduler'?"),
        config("config file unrelated key", "colour: blue\n", "colour",
            "valid keys are: scheduler, utilization-limit, remain-limit"),
        // --set overrides
        set("override without =", "scheduler.max-process", "--set", "must be written key=value"),
        set("override without key", "=4", "--set", "must be written key=value"),
        set("override out of range", "utilization-limit.memory=0", "--set utilization-limit.memory",
            "must be a fraction in (0, 1] but was '0'"),
        set("override of a wrong type", "scheduler.max-process=many", "--set scheduler.max-process",
            "must be a whole number >= 0 but was 'many'"),
        set("override of an unknown key", "scheduler.intervall=2s", "--set scheduler.intervall",
            "did you mean 'scheduler.interval'?"),
        set("override of a section", "scheduler=4", "--set scheduler", "is a section"),
        set("override of an unsupported key", "debug=true", "--set debug", "is not supported by this version"),
        set("override with an empty value", "scheduler.cores=", "--set scheduler.cores", "but was empty"));
  }

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @MethodSource("badInputs")
  void badInputIsReportedWithFileFieldAndRule(BadInput input) {
    Path spec = SpecFiles.write(dir, SPEC, input.spec());
    Path config = input.config() == null ? null : SpecFiles.write(dir, CONFIG, input.config());

    SpecException e = catchThrowableOfType(SpecException.class,
        () -> SpecLoader.load(spec, config, input.overrides(), SpecFiles.ADAPTERS));

    assertThat(e).as("no error for %s", input.name()).isNotNull();
    String expectedFile = input.file().equals(COMMAND_LINE) ? COMMAND_LINE : dir.resolve(input.file()).toString();
    assertThat(e.file()).isEqualTo(expectedFile);
    assertThat(e.field()).isEqualTo(input.field());
    assertThat(e.rule()).contains(input.phrase());
    assertThat(e.getMessage()).doesNotContain("\n");
  }

  @Test
  void missingSpecFileSaysSo() {
    Path missing = dir.resolve("nope.yaml");

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(missing, null, List.of()));

    assertThat(e.file()).isEqualTo(missing.toString());
    assertThat(e.field()).isEmpty();
    assertThat(e.rule()).isEqualTo("file not found");
    assertThat(e.getMessage()).isEqualTo(missing + ": file not found");
  }

  @Test
  void missingConfigFileSaysSo() {
    Path spec = SpecFiles.write(dir, SPEC, SpecFiles.oneGroup("- {id: a, command: [x]}"));
    Path missing = dir.resolve("config.yaml");

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, missing, List.of()));

    assertThat(e.file()).isEqualTo(missing.toString());
    assertThat(e.rule()).isEqualTo("file not found");
  }

  @Test
  void aDirectoryIsNotASpec() {
    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(dir, null, List.of()));

    assertThat(e.rule()).contains("is a directory");
  }

  @Test
  void messageIsFileFieldAndRuleOnOneLine() {
    Path spec = SpecFiles.write(dir, "quickstart.yaml", SpecFiles.oneGroup("- {id: a, command: [x], memory: 12 XB}"));

    SpecException e = catchThrowableOfType(SpecException.class, () -> SpecLoader.load(spec, null, List.of()));

    assertThat(e.getMessage()).isEqualTo(spec + ": groups[0].tasks[0].memory: " + e.rule());
    assertThat(e.getMessage()).contains("quickstart.yaml: groups[0].tasks[0].memory: '12 XB' has unknown unit 'XB'");
  }
}
