package dev.berth.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.spi.ExitListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The loop hears of an attempt's start before its exit, whichever the executor reported first. */
class LaunchHandoffTest {

  private final List<String> loop = new ArrayList<>();
  private final LaunchHandoff handoff = new LaunchHandoff(new ExitListener() {
    @Override
    public void started(long pid, Optional<String> job) {
      loop.add("began " + pid);
    }

    @Override
    public void exited(int exitCode) {
      loop.add("exit " + exitCode);
    }
  }, launched -> loop.add("start"));

  @Test
  void anExitReportedBeforeTheLaunchReturnedReachesTheLoopAfterTheStart() {
    handoff.listener().exited(0); // a task that ended at once, before its launch thread went on

    assertThat(loop).as("nothing before the start").isEmpty();
    handoff.told(() -> {});
    assertThat(loop).containsExactly("start", "exit 0");
  }

  @Test
  void aCallThatBeganAndEndedBeforeItsLaunchReturnedIsToldInThatOrderAfterTheLaunch() {
    handoff.listener().started(42, Optional.of("pool/engine-1"));
    handoff.listener().exited(0);

    assertThat(loop).isEmpty();
    handoff.told(() -> {});
    assertThat(loop).containsExactly("start", "began 42", "exit 0");
  }

  @Test
  void anExitReportedAfterTheStartGoesStraightToTheLoop() {
    handoff.told(() -> {});
    handoff.listener().exited(3);

    assertThat(loop).containsExactly("start", "exit 3");
  }
}
