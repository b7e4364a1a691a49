package dev.berth.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.model.ConfigKey;
import dev.berth.core.model.RunSpec;
import dev.berth.core.model.SettingsTable;
import dev.berth.core.settings.Parsers;
import dev.berth.journal.SpecCodec;
import dev.berth.journal.SpecDiff;
import dev.berth.session.AdapterTables;
import dev.berth.slurm.SlurmKeys;
import dev.berth.spec.ConfigKeys;
import dev.berth.spec.SpecLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key is declared once, as one row of its table, and every surface takes it from there: a made-up
 * key, declared only in this test's table, is read from a spec and from {@code --set}, kept by the
 * journal, compared on resume, listed by {@code berth config --defaults} and set from Java, with no
 * line about it anywhere else.
 */
class OneRowPerKeyTest {

  /** The settings of a made-up adapter: how far its knob is turned. */
  record Knob(int level) {}

  /** Builds {@link Knob}. */
  static final class KnobBuilder {
    private int level = 1;

    KnobBuilder level(int turned) {
      this.level = turned;
      return this;
    }

    Knob build() {
      return new Knob(level);
    }
  }

  /** The made-up key's one row. */
  static final SettingsTable<Knob, KnobBuilder> KNOBS = SettingsTable.of("knob", Knob.class, KnobBuilder::new,
      KnobBuilder::build, List.of(ConfigKey.of("knob.level", "whole number", Parsers.wholeNumber(0),
          KnobBuilder::level, Knob::level, String::valueOf, "how far the knob is turned")));

  private static final List<SettingsTable<?, ?>> TABLES = tables();

  @TempDir
  Path dir;

  @Test
  void aMadeUpKeyInOneRowIsReadFromASpecAndFromSetKeptByTheJournalComparedAndListed() throws Exception {
    Path spec = Files.writeString(dir.resolve("spec.yaml"), String.join("\n",
        "name: knobs",
        "config:",
        "  knob:",
        "    level: 3",
        "groups:",
        "  - name: g",
        "    tasks:",
        "      - id: t",
        "        command: [\"true\"]",
        ""));

    RunSpec written = SpecLoader.load(spec, null, List.of(), TABLES);
    RunSpec overridden = SpecLoader.load(spec, null, List.of("knob.level=5"), TABLES);

    assertThat(KNOBS.of(written).level()).as("the spec reader").isEqualTo(3);
    assertThat(KNOBS.of(overridden).level()).as("--set").isEqualTo(5);
    RunSpec stored = SpecCodec.decode(SpecCodec.encode(overridden, TABLES), TABLES);
    assertThat(stored).as("the journal's round trip").isEqualTo(overridden);
    assertThat(KNOBS.of(stored).level()).isEqualTo(5);
    assertThat(SpecDiff.between(written, overridden, TABLES)).as("the spec diff of a resume")
        .containsExactly("config.knob.level: 3 -> 5");
    assertThat(ConfigKeys.of(TABLES).defaultsYaml()).as("berth config --defaults")
        .contains("knob:\n  # how far the knob is turned\n  level: 1\n");
    assertThatThrownBy(() -> SpecLoader.load(spec, null, List.of("knob.level=-1"), TABLES))
        .as("the row's rule").hasMessageContaining("knob.level");
  }

  @Test
  void theJavaBuilderSetsAMadeUpAdaptersSettingsAndAnyConfigurationKeyByItsRow() {
    BerthOptions options = BerthOptions.builder().name("knobs").settings(KNOBS, KNOBS.read(Map.of("knob.level", 7)))
        .set("scheduler.max-process", 4).set("scheduler.default-memory", "512MiB").build();
    RunSpec run = options.carriedBy(new RunSpec("knobs", "w", options.config(), List.of()));

    assertThat(KNOBS.of(run).level()).isEqualTo(7);
    assertThat(options.config().maxProcess()).isEqualTo(4);
    assertThat(options.config().defaultMemoryBytes()).isEqualTo(512L << 20);
    assertThatThrownBy(() -> BerthOptions.builder().set("scheduler.max-proces", 4))
        .hasMessageContaining("scheduler.max-proces").hasMessageContaining("scheduler.max-process");
    assertThatThrownBy(() -> BerthOptions.builder().set("scheduler.max-process", -1))
        .hasMessage("scheduler.max-process must be a whole number >= 0 but was -1");
  }

  @Test
  void setReachesTheKeysOfEveryAdapterTableAndKeepsTheAdaptersOtherValues() {
    BerthOptions options = BerthOptions.builder().name("adapters").set("slurm.partition", "gpu")
        .set("slurm.time", "2h").set("scheduler.log-cap", "64MiB").set("scheduler.enforce-memory", true).build();
    RunSpec run = options.carriedBy(new RunSpec("adapters", "w", options.config(), List.of()));

    assertThat(SlurmKeys.TABLE.of(run).partition()).isEqualTo("gpu");
    assertThat(SlurmKeys.TABLE.of(run).time()).isEqualTo(java.time.Duration.ofHours(2));
    assertThat(ConfigKeys.of(TABLES).values(run)).containsEntry("scheduler.log-cap", "64MiB")
        .containsEntry("scheduler.enforce-memory", "true");
  }

  private static List<SettingsTable<?, ?>> tables() {
    List<SettingsTable<?, ?>> tables = new ArrayList<>(AdapterTables.ALL);
    tables.add(KNOBS);
    return List.copyOf(tables);
  }
}
