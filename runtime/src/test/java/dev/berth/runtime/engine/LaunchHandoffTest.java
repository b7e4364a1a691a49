package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop hears of an attempt's start before its exit, whichever the executor reported first. */
class LaunchHandoffTest {

  private final List<String> loop = new ArrayList<>();
  private final LaunchHandoff handoff = new LaunchHandoff(code -> loop.add("exit " + code), started -> loop.add("start"));

  @Test
  void anExitReportedBeforeTheLaunchReturnedReachesTheLoopAfterTheStart() {
    handoff.listener().exited(0); // a task that ended at once, before its launch thread went on

    assertThat(loop).as("nothing before the start").isEmpty();
    handoff.told(() -> {});
    assertThat(loop).containsExactly("start", "exit 0");
  }

  @Test
  void anExitReportedAfterTheStartGoesStraightToTheLoop() {
    handoff.told(() -> {});
    handoff.listener().exited(3);

    assertThat(loop).containsExactly("start", "exit 3");
  }
}
