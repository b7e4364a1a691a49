package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EdgeTasksTest {

  private static List<TaskId> ids(int n) {
    return IntStream.range(0, n).mapToObj(i -> TaskId.of("t-" + i)).toList();
  }

  @Test
  void aListWithoutOneOfItsTasksIsAViewOfTheSameWholeThatEqualsACopy() {
    for (int n : new int[] {3, 40}) { // searched and indexed
      EdgeTasks all = EdgeTasks.of(ids(n));
      EdgeTasks view = all.without(TaskId.of("t-1"));

      assertThat(view.whole()).isSameAs(all);
      assertThat(view.leftOut()).contains(TaskId.of("t-1"));
      assertThat(view).hasSize(n - 1).doesNotContain(TaskId.of("t-1")).contains(TaskId.of("t-0"), TaskId.of("t-2"));
      List<TaskId> copy = ids(n).stream().filter(t -> !t.value().equals("t-1")).toList();
      assertThat(view).isEqualTo(copy);
      assertThat(view.hashCode()).isEqualTo(copy.hashCode());
      assertThat(all.without(TaskId.of("elsewhere"))).isSameAs(all);
      assertThat(view.without(TaskId.of("t-1"))).isSameAs(view);
      assertThat(view.without(TaskId.of("t-2"))).containsExactlyElementsOf(
          copy.stream().filter(t -> !t.value().equals("t-2")).toList());
    }
  }

  @Test
  void aListOfEdgeTasksIsSharedNotCopiedAndRepeatsAreKept() {
    EdgeTasks all = EdgeTasks.of(ids(3));
    EdgeTasks twice = EdgeTasks.of(List.of(TaskId.of("a"), TaskId.of("a")));

    assertThat(EdgeTasks.of(all)).isSameAs(all);
    assertThat(new Dependency(all, true, true, false).tasks()).isSameAs(all);
    assertThat(all.distinct()).isTrue();
    assertThat(twice.distinct()).isFalse();
    assertThat(twice).hasSize(2);
  }

  @Test
  void anEdgeToManyTasksIsDescribedByItsFirstTasksAndHowManyMore() {
    assertThat(Dependency.allSucceeded(ids(3)).describe()).isEqualTo("all of [t-0, t-1, t-2] succeeded");
    assertThat(new Dependency(ids(4000), false, true, true).describe())
        .isEqualTo("any of [t-0, t-1, t-2, t-3, t-4, t-5, t-6, t-7, t-8, ... 3991 more] ended");
  }
}
