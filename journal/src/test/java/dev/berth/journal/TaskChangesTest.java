package dev.berth.journal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.berth.core.model.TaskId;
import dev.berth.core.model.TaskKey;
import dev.berth.core.model.TaskKeys;
import dev.berth.core.model.TaskSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TaskChangesTest {

  @Test
  void tasksWrittenFromTheirIdAndParametersReadAsIfEveryTaskWereComparedWhole() {
    Random random = new Random(5);
    List<TaskSpec> pool = new ArrayList<>();
    for (long seed = 0; pool.size() < 40; seed++) {
      pool.addAll(new RandomSpecs(seed).run().tasks());
    }
    for (int round = 0; round < 200; round++) {
      List<TaskSpec> tasks = new ArrayList<>();
      tasks.add(withId(pool.get(random.nextInt(pool.size())), "t0", random));
      for (int i = 1; i < 12; i++) {
        TaskSpec previous = tasks.get(i - 1);
        TaskSpec other = pool.get(random.nextInt(pool.size()));
        int way = random.nextInt(4);
        tasks.add(way < 2 ? withId(previous, "t" + i, random) // a sweep's next task
            : way == 2 ? mixed(previous, other, random.nextInt(TaskKeys.carried().size() + 4), "t" + i) // one field changed
            : withId(other, "t" + i, random)); // another task altogether
      }

      assertThat(TaskChanges.of(tasks)).as("round %d", round).isEqualTo(comparedWhole(tasks));
    }
  }

  @Test
  void aSweepsNextTaskIsItsIdAndOnlyTheParametersThatChanged() {
    TaskSpec first = TaskSpec.builder("t-0", "g").command("true").params(Map.of("a", "0")).template("t-{a}").build();
    TaskSpec same = withParams(first, "t-1", first.params());
    TaskSpec next = withParams(first, "t-2", new TreeMap<>(Map.of("a", "2")));

    ArrayNode changes = TaskChanges.of(List.of(first, same, next));

    assertThat(CanonicalJson.write(changes.get(1))).isEqualTo("{\"id\":\"t-1\"}");
    assertThat(CanonicalJson.write(changes.get(2))).isEqualTo("{\"id\":\"t-2\",\"params\":{\"a\":\"2\"}}");
    assertThat(TaskChanges.onlyIdAndParamsDiffer(first, next)).isTrue();
    assertThat(TaskChanges.onlyIdAndParamsDiffer(first, first.toBuilder().template("other-{a}").build())).isFalse();
  }

  /** The changes as every task written whole and compared field by field with the one before gives them. */
  private static ArrayNode comparedWhole(List<TaskSpec> tasks) {
    ArrayNode changes = CanonicalJson.object().arrayNode();
    ObjectNode previous = null;
    for (TaskSpec task : tasks) {
      ObjectNode whole = TaskCodec.toJson(task);
      changes.add(previous == null ? whole : TaskChanges.change(previous, whole));
      previous = whole;
    }
    return changes;
  }

  private static TaskSpec withId(TaskSpec t, String id, Random random) {
    TreeMap<String, String> params = new TreeMap<>(t.params());
    if (random.nextBoolean()) {
      params.put("p", Integer.toString(random.nextInt(3)));
    }
    return withParams(t, id, params);
  }

  private static TaskSpec withParams(TaskSpec t, String id, java.util.SortedMap<String, String> params) {
    boolean own = t.template().equals(t.id().value());
    return t.withIdAndParams(TaskId.of(id), params, own ? id : t.template());
  }

  /** {@code a} with {@code b}'s value of field {@code f} (a carried key, then after, follow, template, params) and the id given. */
  private static TaskSpec mixed(TaskSpec a, TaskSpec b, int f, String id) {
    List<TaskKey<?>> keys = TaskKeys.carried();
    TaskSpec.Builder mixed = a.toBuilder();
    if (f < keys.size()) {
      copy(keys.get(f), b, mixed);
    } else if (f == keys.size()) {
      b.after().ifPresent(mixed::after);
    } else if (f == keys.size() + 1) {
      b.follow().ifPresent(mixed::follow);
    } else if (f == keys.size() + 2) {
      mixed.template("x-{p}");
    }
    TaskSpec built = mixed.build();
    return built.withIdAndParams(TaskId.of(id), f == keys.size() + 3 ? b.params() : a.params(), built.template());
  }

  /** Copies one key; the GPU keys go together, as only some of their combinations make a request. */
  private static <T> void copy(TaskKey<T> key, TaskSpec from, TaskSpec.Builder to) {
    if (List.of(TaskKeys.GPU_MEMORY, TaskKeys.GPUS, TaskKeys.DEVICE, TaskKeys.TARGETS, TaskKeys.PLACEMENT,
        TaskKeys.BLACKLIST).contains(key)) {
      to.gpu(from.gpu());
    } else {
      to.set(key, from.get(key));
    }
  }
}
