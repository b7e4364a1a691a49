package dev.berth.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Core's packages depend on each other without a cycle: the graph is read from the imports (and
 * fully qualified names) in {@code src/main/java}, so a new cycle fails here and names its path.
 */
class PackageCyclesTest {

  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+);");
  private static final Pattern REFERENCE = Pattern.compile("\\b(dev\\.berth\\.core(?:\\.[a-z_][a-z0-9_]*)*)\\.[A-Z*]");

  @Test
  void coresPackagesFormNoCycle() throws IOException {
    SortedMap<String, Set<String>> graph = graph(Path.of("src/main/java"));

    assertThat(graph).containsKeys("dev.berth.core.model", "dev.berth.core.scheduling");
    assertThat(cycle(graph)).as("a cycle between core's packages").isEmpty();
  }

  @Test
  void aCycleIsFoundAndNamedAlongItsPath() {
    SortedMap<String, Set<String>> graph = new TreeMap<>(Map.of(
        "a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"), "d", Set.of()));

    assertThat(cycle(graph)).contains(List.of("a", "b", "c", "a"));
    assertThat(cycle(new TreeMap<>(Map.of("a", Set.of("b"), "b", Set.of())))).isEmpty();
  }

  /** Package to the other core packages its main sources name. */
  private static SortedMap<String, Set<String>> graph(Path sources) throws IOException {
    SortedMap<String, Set<String>> graph = new TreeMap<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    for (Path file : files) {
      String pkg = null;
      Set<String> uses = new TreeSet<>();
      for (String line : Files.readAllLines(file)) {
        String code = line.strip();
        Matcher declared = PACKAGE.matcher(code);
        if (declared.find()) {
          pkg = declared.group(1);
        } else if (!code.startsWith("*") && !code.startsWith("/*") && !code.startsWith("//")) {
          Matcher m = REFERENCE.matcher(code);
          while (m.find()) {
            uses.add(m.group(1));
          }
        }
      }
      String from = pkg;
      uses.remove(from);
      graph.computeIfAbsent(from, k -> new TreeSet<>()).addAll(uses);
    }
    return graph;
  }

  /** The first cycle found by a depth-first walk in name order, as a path that ends where it starts. */
  private static Optional<List<String>> cycle(SortedMap<String, Set<String>> graph) {
    Set<String> done = new TreeSet<>();
    for (String start : graph.keySet()) {
      Optional<List<String>> found = visit(start, graph, new ArrayList<>(), done);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private static Optional<List<String>> visit(String pkg, SortedMap<String, Set<String>> graph, List<String> path,
      Set<String> done) {
    int seen = path.indexOf(pkg);
    if (seen >= 0) {
      List<String> cycle = new ArrayList<>(path.subList(seen, path.size()));
      cycle.add(pkg);
      return Optional.of(cycle);
    }
    if (done.contains(pkg)) {
      return Optional.empty();
    }
    path.add(pkg);
    for (String next : new TreeSet<>(graph.getOrDefault(pkg, Set.of()))) {
      Optional<List<String>> found = visit(next, graph, path, done);
      if (found.isPresent()) {
        return found;
      }
    }
    path.remove(path.size() - 1);
    done.add(pkg);
    return Optional.empty();
  }
}
