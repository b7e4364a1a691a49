package dev.berth.slurm;

import dev.berth.spi.LaunchRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntSupplier;

/**
 * Splits the requests of one {@link SlurmExecutor#launchAll} into what is submitted together: requests
 * with the same array key, no upstream and equal resource options ({@link SbatchCommand#resourceOptions})
 * become one job array when there are at least two of them and the settings allow arrays (several
 * arrays past the most elements the cluster allows in one, each with its own {@code %K}); every other
 * request is submitted alone. Pure.
 */
final class ArrayPlan {

  private ArrayPlan() {}

  /**
   * The submissions in the order of their first request: each a list of request indices, a single
   * index for a job of its own and two or more for a job array.
   *
   * @param resources what each request asks for, in the order of {@code requests}; null for a request that
   *     cannot be submitted, which then stays alone
   * @param maxElements the most elements in one array, asked for only when there is an array to cut
   */
  static List<List<Integer>> units(SlurmConfig slurm, List<LaunchRequest> requests, List<SlurmResources> resources,
      IntSupplier maxElements) {
    return units(slurm, r -> slurm, requests, resources, maxElements);
  }

  /**
   * As {@link #units(SlurmConfig, List, List, IntSupplier)}, where the requests of one array must also ask
   * for the same job options ({@link SbatchCommand#jobOptions}): each request's are {@code optionsOf} it,
   * the run's {@code slurm} with its group's over them.
   */
  static List<List<Integer>> units(SlurmConfig slurm, Function<LaunchRequest, SlurmConfig> optionsOf,
      List<LaunchRequest> requests, List<SlurmResources> resources, IntSupplier maxElements) {
    Map<Object, List<Integer>> byKey = new LinkedHashMap<>();
    for (int i = 0; i < requests.size(); i++) {
      LaunchRequest r = requests.get(i);
      Object key = i;
      if (slurm.arrays() && r.arrayKey().isPresent() && r.upstream().isEmpty() && resources.get(i) != null) {
        SlurmConfig options = optionsOf.apply(r);
        key = List.of(r.arrayKey().get(), SbatchCommand.jobOptions(options, resources.get(i)), options.extraArgs());
      }
      byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
    }
    List<List<Integer>> units = new ArrayList<>();
    for (List<Integer> group : byKey.values()) {
      if (group.size() >= 2) {
        int most = maxElements.getAsInt();
        for (int from = 0; from < group.size(); from += most) {
          List<Integer> chunk = group.subList(from, Math.min(group.size(), from + most));
          if (chunk.size() >= 2) {
            units.add(List.copyOf(chunk));
          } else {
            units.add(List.of(chunk.get(0)));
          }
        }
      } else {
        group.forEach(i -> units.add(List.of(i)));
      }
    }
    return units;
  }
}
