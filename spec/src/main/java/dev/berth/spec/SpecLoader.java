package dev.berth.spec;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SchedulerConfig;
import dev.berth.core.model.SettingsTable;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Loads a run spec: reads the YAML, checks every key and value, stacks the configuration and
 * expands matrices into the {@link RunSpec} Berth runs. Every user mistake becomes a
 * {@link SpecException} that names the file, the field and the rule.
 *
 * <p>Configuration precedence, lowest to highest: {@link SchedulerConfig#DEFAULTS}, the config
 * file, the spec's {@code config:} block, the {@code --set} overrides.
 */
public final class SpecLoader {

  private SpecLoader() {}

  /**
   * Loads, validates and expands a spec.
   *
   * @param specFile the spec, named as the user gave it (errors quote this text)
   * @param configFile the user's config file (the caller decides, e.g. ./config.yaml when present),
   *     or null for none
   * @param overrides {@code key.path=value} strings from {@code --set}, applied last; null for none
   * @throws SpecException for anything wrong with the files or the overrides
   */
  public static RunSpec load(Path specFile, Path configFile, List<String> overrides) throws SpecException {
    return load(specFile, configFile, overrides, List.of());
  }

  /**
   * Loads, validates and expands a spec whose run may use {@code adapters}: their keys are read and
   * checked with core's, and the run carries their settings.
   *
   * @param adapters the tables of the adapters a run may use (mail, webhook, Slurm, ...)
   * @throws SpecException for anything wrong with the files or the overrides
   */
  public static RunSpec load(Path specFile, Path configFile, List<String> overrides,
      List<SettingsTable<?, ?>> adapters) throws SpecException {
    return read(specFile, configFile, overrides, adapters).run();
  }

  /**
   * A loaded spec and the warnings about it: things Berth accepts but that are likely mistakes,
   * each one line naming the file and the field, e.g. a memory size written in bits ({@code 2Gb}).
   *
   * @param run the spec, as {@link #load} returns it
   * @param warnings one line each, for the command to print
   */
  public record Loaded(RunSpec run, List<String> warnings) {

    /** Copies the list. */
    public Loaded {
      Objects.requireNonNull(run, "run");
      warnings = List.copyOf(warnings);
    }
  }

  /** Loads as {@link #load} does, and says what in the spec is accepted but likely a mistake. */
  public static Loaded read(Path specFile, Path configFile, List<String> overrides,
      List<SettingsTable<?, ?>> adapters) throws SpecException {
    Objects.requireNonNull(specFile, "specFile");
    ConfigKeys keys = ConfigKeys.of(adapters);
    Field root = Field.root(specFile.toString());
    YamlNode document = YamlReader.readFile(specFile).orElseThrow(
        () -> root.problem("the file is empty; a spec needs at least 'name' and 'groups'"));
    ConfigLayer fromFile = configFile == null ? ConfigLayer.EMPTY : ConfigLayer.fromFile(configFile, keys);
    ConfigLayer fromCommandLine = ConfigLayer.fromOverrides(overrides == null ? List.of() : overrides, keys);
    List<String> warnings = MemorySpellings.warnings(document, root);
    RunSpec run = RunSpecReader.read(document, root, BuiltInPlaceholders.forSpec(specFile), fromFile, fromCommandLine,
        keys);
    return new Loaded(run, warnings);
  }

  /**
   * The configuration without a spec: defaults, then the config file, then the overrides. For
   * commands such as {@code berth config} that show the effective configuration.
   *
   * @param configFile the user's config file, or null for none
   * @param overrides {@code key.path=value} strings from {@code --set}; null for none
   * @throws SpecException for anything wrong with the file or the overrides
   */
  public static SchedulerConfig loadConfig(Path configFile, List<String> overrides) throws SpecException {
    ConfigKeys keys = ConfigKeys.of(List.of());
    ConfigLayer fromFile = configFile == null ? ConfigLayer.EMPTY : ConfigLayer.fromFile(configFile, keys);
    ConfigLayer fromCommandLine = ConfigLayer.fromOverrides(overrides == null ? List.of() : overrides, keys);
    Field whole = new Field(configFile == null ? ConfigLayer.COMMAND_LINE : configFile.toString(), "");
    return ConfigLayer.combine(List.of(fromFile, fromCommandLine), keys, whole).config();
  }
}
