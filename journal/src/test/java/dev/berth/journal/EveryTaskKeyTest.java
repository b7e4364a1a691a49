package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.berth.core.model.RunSpec;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import dev.berth.testkit.TaskSpecs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every key a task carries is stored, read back, compared on resume and written as a change by the
 * same loop over {@link TaskKeys#carried()}: a key added to the table is covered here by giving it a
 * sample value, and needs no line in the codec, the diff or the changes.
 */
class EveryTaskKeyTest {

  /** A value other than the initial one for each carried key, as a spec writes it. */
  private static final Map<String, Object> SAMPLES = Map.ofEntries(
      Map.entry("command", List.of("echo", "other")), Map.entry("env", Map.of("SEED", "3")),
      Map.entry("memory", "1GiB"), Map.entry("cpus", 2.5), Map.entry("priority", 7), Map.entry("retries", 2),
      Map.entry("retry-delay", "5s"), Map.entry("retry-backoff", 3), Map.entry("retry-delay-max", "1m"),
      Map.entry("queue-timeout", "1h"), Map.entry("timeout", "2h"), Map.entry("gpu-memory", "2GiB"),
      Map.entry("gpus", 2), Map.entry("device", "cuda:1"), Map.entry("targets", List.of(0, 1)),
      Map.entry("placement", "first-fit"), Map.entry("blacklist", false), Map.entry("two-stage", true),
      Map.entry("enforce-memory", true), Map.entry("pool", Map.of("name", "fast", "size", 2, "memory", "1GiB")),
      Map.entry("slurm", Map.of("partition", "gpu", "extra-args", List.of("--exclusive"))));

  private static final TaskSpec PLAIN = TaskSpec.builder("t", "g").command("echo", "plain").build();

  @Test
  void eachCarriedKeyRoundTripsThroughTheJournalAndShowsInTheDiffAndTheChanges() {
    for (TaskKey<?> key : TaskKeys.carried()) {
      if (!SAMPLES.containsKey(key.key())) {
        fail("give task key " + key.key() + " a sample value in " + getClass().getSimpleName());
      }
      TaskSpec changed = with(key, SAMPLES.get(key.key()));
      assertThat(changed.get(key)).as(key.key()).isNotEqualTo(PLAIN.get(key));

      RunSpec run = run(changed);
      RunSpec back = SpecCodec.decode(SpecCodec.encode(run));
      assertThat(back).as("%s through the journal", key.key()).isEqualTo(run);
      assertThat(back.tasks().get(0).get(key)).as(key.key()).isEqualTo(changed.get(key));
      assertThat(SpecDiff.between(run(PLAIN), run)).as("%s in the diff of a resume", key.key())
          .anySatisfy(line -> assertThat(line).startsWith("groups[g].tasks[t]." + key.key()));
      assertThat(TaskChanges.of(List.of(PLAIN, changed.withIdAndParams(dev.berth.core.model.TaskId.of("u"),
          changed.params(), "u"))).get(1).has(key.key())).as("%s as a change", key.key()).isTrue();
    }
  }

  private static <T> TaskSpec with(TaskKey<T> key, Object written) {
    return PLAIN.toBuilder().set(key, key.parse(written)).build();
  }

  private static RunSpec run(TaskSpec task) {
    return TaskSpecs.run("r").group("g", task).build();
  }
}
