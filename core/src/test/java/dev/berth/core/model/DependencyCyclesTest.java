package dev.berth.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DependencyCyclesTest {

  /** Parents written as "a: b c" lines, in order. */
  private static Map<TaskId, List<TaskId>> graph(String... lines) {
    Map<TaskId, List<TaskId>> g = new LinkedHashMap<>();
    for (String line : lines) {
      String[] parts = line.split(":", -1);
      List<TaskId> parents = Arrays.stream(parts[1].trim().split("\\s+"))
          .filter(s -> !s.isEmpty()).map(TaskId::of).toList();
      g.put(TaskId.of(parts[0].trim()), parents);
    }
    return g;
  }

  private static List<String> cycle(Map<TaskId, List<TaskId>> g) {
    Optional<List<TaskId>> c = DependencyCycles.find(g);
    return c.map(l -> l.stream().map(TaskId::value).toList()).orElse(null);
  }

  @Test
  void aListThatTheEdgesOfManyTasksShareIsFollowedToTheCycleThroughIt() {
    EdgeTasks shared = EdgeTasks.of(List.of(TaskId.of("m-1"), TaskId.of("m-2")));
    Map<TaskId, List<EdgeTasks>> edges = new LinkedHashMap<>();
    edges.put(TaskId.of("r-1"), List.of(shared));
    edges.put(TaskId.of("r-2"), List.of(shared));
    edges.put(TaskId.of("m-2"), List.of(EdgeTasks.of(List.of(TaskId.of("r-2")))));

    assertThat(DependencyCycles.findThroughLists(edges)).hasValueSatisfying(c ->
        assertThat(c).extracting(TaskId::value).containsExactly("m-2", "r-2", "m-2"));
    edges.remove(TaskId.of("m-2"));
    assertThat(DependencyCycles.findThroughLists(edges)).isEmpty();
  }

  @Test
  void tasksEachAfterAllTheOthersMakeACycleOfTheFirstTwo() {
    EdgeTasks all = EdgeTasks.of(IntStream.range(0, 20_000).mapToObj(i -> TaskId.of("t-" + i)).toList());
    Map<TaskId, List<EdgeTasks>> edges = new LinkedHashMap<>();
    all.forEach(t -> edges.put(t, List.of(all.without(t))));

    assertThat(DependencyCycles.findThroughLists(edges)).hasValueSatisfying(c ->
        assertThat(c).extracting(TaskId::value).containsExactly("t-0", "t-1", "t-0"));
  }

  @Test
  void aGraphWithoutCyclesHasNone() {
    assertThat(DependencyCycles.find(graph("a:", "b: a", "c: a b", "d: b c"))).isEmpty();
  }

  @Test
  void anEmptyGraphHasNone() {
    assertThat(DependencyCycles.find(Map.of())).isEmpty();
  }

  @Test
  void aDiamondIsNotACycle() {
    assertThat(DependencyCycles.find(graph("d: b c", "b: a", "c: a", "a:"))).isEmpty();
  }

  @Test
  void aTaskThatDependsOnItselfIsACycleOfOne() {
    assertThat(cycle(graph("a: a"))).containsExactly("a", "a");
  }

  @Test
  void aTwoTaskCycleIsNamedFromWhereTheSearchEnteredIt() {
    assertThat(cycle(graph("a: b", "b: a"))).containsExactly("a", "b", "a");
  }

  @Test
  void aThreeTaskCycleIsNamedInDependencyOrder() {
    assertThat(cycle(graph("a: b", "b: c", "c: a"))).containsExactly("a", "b", "c", "a");
  }

  @Test
  void theTasksLeadingIntoACycleAreNotPartOfIt() {
    assertThat(cycle(graph("x: y", "y: a", "a: b", "b: c", "c: a"))).containsExactly("a", "b", "c", "a");
  }

  @Test
  void aCycleFoundLaterAfterAnAcyclicPartIsStillFound() {
    assertThat(cycle(graph("a:", "b: a", "c: b", "d: e", "e: d"))).containsExactly("d", "e", "d");
  }

  @Test
  void parentsNotListedAsKeysAreLeaves() {
    assertThat(DependencyCycles.find(graph("a: outside", "b: a outside"))).isEmpty();
  }

  @Test
  void theAnswerIsDeterministic() {
    Map<TaskId, List<TaskId>> g = graph("a: b c", "b: a", "c: a");
    List<String> first = cycle(g);
    for (int i = 0; i < 20; i++) {
      assertThat(cycle(g)).isEqualTo(first);
    }
    assertThat(first).containsExactly("a", "b", "a");
  }

  @Test
  void aVeryDeepChainDoesNotOverflowTheStack() {
    int n = 200_000;
    Map<TaskId, List<TaskId>> g = new LinkedHashMap<>();
    for (int i = n - 1; i >= 0; i--) {
      g.put(TaskId.of("t" + i), i == 0 ? List.of() : List.of(TaskId.of("t" + (i - 1))));
    }
    assertThat(DependencyCycles.find(g)).isEmpty();

    g.put(TaskId.of("t0"), List.of(TaskId.of("t" + (n - 1))));
    Optional<List<TaskId>> c = DependencyCycles.find(g);
    assertThat(c).isPresent();
    assertThat(c.get()).hasSize(n + 1);
  }

  static Stream<Long> seeds() {
    return IntStream.range(0, 200).mapToObj(i -> (long) i);
  }

  /** A random graph; edges to earlier tasks only, unless a back edge is added on purpose. */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void aCycleIsFoundExactlyWhenOneExistsAndWhatIsReturnedIsARealCycle(long seed) {
    Random rnd = new Random(seed);
    int n = 1 + rnd.nextInt(30);
    List<List<Integer>> parents = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<Integer> ps = new ArrayList<>();
      for (int j = 0; j < i; j++) {
        if (rnd.nextInt(4) == 0) {
          ps.add(j);
        }
      }
      parents.add(ps);
    }
    boolean backEdge = rnd.nextBoolean();
    if (backEdge) {
      int from = rnd.nextInt(n);
      int to = from + rnd.nextInt(n - from); // to >= from: may close a cycle or be a self-loop
      parents.get(from).add(to);
    }
    Map<TaskId, List<TaskId>> g = new LinkedHashMap<>();
    List<Integer> order = new ArrayList<>(IntStream.range(0, n).boxed().toList());
    java.util.Collections.shuffle(order, rnd);
    for (int i : order) {
      g.put(TaskId.of("t" + i), parents.get(i).stream().map(j -> TaskId.of("t" + j)).toList());
    }

    Optional<List<TaskId>> found = DependencyCycles.find(g);

    assertThat(found.isPresent()).as("seed %d: cycle found", seed).isEqualTo(hasCycle(parents));
    found.ifPresent(c -> {
      assertThat(c.get(0)).as("seed %d: closes", seed).isEqualTo(c.get(c.size() - 1));
      Set<TaskId> inner = new HashSet<>(c.subList(0, c.size() - 1));
      assertThat(inner).as("seed %d: no repeats inside %s", seed, c).hasSize(c.size() - 1);
      for (int k = 0; k + 1 < c.size(); k++) {
        assertThat(g.get(c.get(k))).as("seed %d: %s -> %s is an edge", seed, c.get(k), c.get(k + 1))
            .contains(c.get(k + 1));
      }
    });
  }

  /** Kahn's algorithm, independent of the code under test. */
  private static boolean hasCycle(List<List<Integer>> parents) {
    int n = parents.size();
    int[] missing = new int[n];
    List<List<Integer>> children = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      children.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      for (int p : parents.get(i)) {
        missing[i]++;
        children.get(p).add(i);
      }
    }
    java.util.ArrayDeque<Integer> q = new java.util.ArrayDeque<>();
    for (int i = 0; i < n; i++) {
      if (missing[i] == 0) {
        q.add(i);
      }
    }
    int done = 0;
    while (!q.isEmpty()) {
      int i = q.poll();
      done++;
      for (int c : children.get(i)) {
        if (--missing[c] == 0) {
          q.add(c);
        }
      }
    }
    return done < n;
  }
}
