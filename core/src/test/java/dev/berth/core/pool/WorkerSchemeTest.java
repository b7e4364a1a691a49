package dev.berth.core.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.berth.core.pool.WorkerScheme.Load;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each scheme chooses its engine as IPython parallel's task scheduler does, repeatably. */
class WorkerSchemeTest {

  private static final List<Load> ENGINES = List.of(new Load(2, 5), new Load(0, 9), new Load(0, 3), new Load(1, 1));

  @Test
  void leastloadTakesTheEngineWithFewestCallsInFlightAndAmongThoseTheOneUsedLongestAgo() {
    assertThat(WorkerScheme.LEASTLOAD.choose(ENGINES, bound -> 0)).isEqualTo(2);
  }

  @Test
  void lruTakesTheEngineUsedLongestAgoWhateverItsLoad() {
    assertThat(WorkerScheme.LRU.choose(ENGINES, bound -> 0)).isEqualTo(3);
  }

  @Test
  void plainrandomTakesTheEngineItsDrawNames() {
    assertThat(WorkerScheme.PLAINRANDOM.choose(ENGINES, bound -> bound - 1)).isEqualTo(3);
  }

  @Test
  void twobinDrawsTwoEnginesAndTakesTheOneUsedLongestAgo() {
    int[] draws = {1, 2};
    int[] next = {0};
    assertThat(WorkerScheme.TWOBIN.choose(ENGINES, bound -> draws[next[0]++])).isEqualTo(2);
  }

  @Test
  void weightedFavoursIdleEnginesInProportionToOneOverOnePlusTheirLoad() {
    List<Load> two = List.of(new Load(0, 0), new Load(1, 0));
    // weights 1000 and 500: draws below 1000 take the idle engine
    assertThat(WorkerScheme.WEIGHTED.choose(two, bound -> 999)).isZero();
    assertThat(WorkerScheme.WEIGHTED.choose(two, bound -> 1000)).isEqualTo(1);
    int idle = 0;
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 3000; i++) {
      idle += WorkerScheme.WEIGHTED.choose(two, random::nextInt) == 0 ? 1 : 0;
    }
    assertThat(idle).isBetween(1800, 2200);
  }

  @Test
  void aSchemeIsNamedAsASpecWritesItAndAnUnknownNameIsRefused() {
    assertThat(WorkerScheme.named("twobin")).isEqualTo(WorkerScheme.TWOBIN);
    assertThat(WorkerScheme.LEASTLOAD).hasToString("leastload");
    assertThatThrownBy(() -> WorkerScheme.named("fastest")).hasMessageContaining("leastload, lru");
  }

  @Test
  void noEngineToChooseFromIsAnError() {
    assertThatThrownBy(() -> WorkerScheme.LRU.choose(List.of(), bound -> 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
