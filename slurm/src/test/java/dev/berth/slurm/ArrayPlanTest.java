package dev.berth.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.GpuRequest;
import dev.berth.core.model.TaskId;
import dev.berth.spi.Execution;
import dev.berth.spi.LaunchRequest;
import dev.berth.spi.Upstream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

class ArrayPlanTest {

  private static final IntSupplier MOST = () -> ClusterLimits.MAX_ELEMENTS;

  private static final SlurmConfig SLURM = SlurmConfig.DEFAULTS;
  private static final SlurmResources SMALL = SlurmResources.DEFAULT;
  private static final SlurmResources BIG = new SlurmResources(1L << 30, 1000, GpuRequest.NONE, Optional.empty());

  @Test
  void requestsWithOneKeyAndEqualResourcesBecomeOneArrayAndTheRestStayAlone() {
    List<LaunchRequest> requests = List.of(keyed("a", "m"), plain("b"), keyed("c", "m"), keyed("d", "m"));

    assertThat(ArrayPlan.units(SLURM, requests, List.of(SMALL, SMALL, SMALL, SMALL), MOST))
        .containsExactly(List.of(0, 2, 3), List.of(1));
  }

  @Test
  void aMatrixLargerThanSlurmsDefaultMaxArraySizeIsSplitIntoSeveralArrays() {
    int n = ClusterLimits.MAX_ELEMENTS * 2 + 1;
    List<LaunchRequest> requests = java.util.stream.IntStream.range(0, n).mapToObj(i -> keyed("t" + i, "m")).toList();

    List<List<Integer>> units = ArrayPlan.units(SLURM, requests, java.util.Collections.nCopies(n, SMALL), MOST);

    assertThat(units).extracting(List::size).containsExactly(ClusterLimits.MAX_ELEMENTS, ClusterLimits.MAX_ELEMENTS, 1);
    assertThat(units.get(1).get(0)).isEqualTo(ClusterLimits.MAX_ELEMENTS);
  }

  @Test
  void resourcesThatSbatchAsksForAlikeShareAnArray() {
    SlurmResources halfCore = new SlurmResources(0, 500, GpuRequest.NONE, Optional.empty());

    assertThat(ArrayPlan.units(SLURM, List.of(keyed("a", "m"), keyed("b", "m")), List.of(SMALL, halfCore), MOST))
        .containsExactly(List.of(0, 1));
  }

  @Test
  void differentResourcesSplitAKeyIntoArraysAndLoneJobs() {
    List<LaunchRequest> requests = List.of(keyed("a", "m"), keyed("b", "m"), keyed("c", "m"));

    assertThat(ArrayPlan.units(SLURM, requests, List.of(SMALL, BIG, SMALL), MOST))
        .containsExactly(List.of(0, 2), List.of(1));
  }

  @Test
  void aLoneKeyAnUpstreamAnUnusableRequestOrArraysTurnedOffMeanSingleJobs() {
    Execution parent = new NoExecution();
    List<LaunchRequest> requests = List.of(keyed("a", "m"), keyed("b", "n"),
        keyed("c", "n").withUpstream(new Upstream(List.of(parent), true, true, false)), keyed("d", "o"),
        keyed("e", "o"));

    assertThat(ArrayPlan.units(SLURM, requests, Arrays.asList(SMALL, SMALL, SMALL, SMALL, null), MOST))
        .containsExactly(List.of(0), List.of(1), List.of(2), List.of(3), List.of(4));
    List<SlurmResources> same = new ArrayList<>(List.of(SMALL, SMALL, SMALL, SMALL, SMALL));
    assertThat(ArrayPlan.units(SLURM.toBuilder()
        .set(SlurmKeys.ARRAYS, false).build(), List.of(keyed("a", "m"), keyed("b", "m")),
        same.subList(0, 2), MOST)).containsExactly(List.of(0), List.of(1));
  }

  private static LaunchRequest keyed(String task, String key) {
    return plain(task).withArrayKey(key);
  }

  private static LaunchRequest plain(String task) {
    Path dir = Path.of("/shared", task);
    return new LaunchRequest(TaskId.of(task), 1, List.of("true"), new TreeMap<>(), dir, dir.resolve("stdout.log"),
        dir.resolve("stderr.log"));
  }

  /** A parent that is never asked anything. */
  private static final class NoExecution implements Execution {
    @Override
    public long pid() {
      return -1;
    }

    @Override
    public boolean isAlive() {
      return true;
    }

    @Override
    public void terminate(long graceMillis) {}
  }
}
