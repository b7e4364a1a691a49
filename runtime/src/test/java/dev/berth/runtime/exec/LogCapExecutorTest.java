package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.model.TaskId;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An attempt's output beyond scheduler.log-cap is cut, keeping its head, a marker line and its last lines. */
class LogCapExecutorTest {

  private static final long CAP = 1L << 20;

  @TempDir Path dir;
  private final LocalProcessExecutor executor =
      new LocalProcessExecutor(TaskContainment.processTrees(), Duration.ofMillis(100),
          LocalSettings.builder().logCapBytes(CAP).build(), Set.of());

  @AfterEach
  void close() {
    executor.close();
  }

  @Test
  void anAttemptWritingThreeTimesItsCapKeepsTheHeadAMarkerAndItsLastLineWithinTheCap() throws Exception {
    Path out = dir.resolve("out.log");
    Exits exits = new Exits();
    executor.launch(new LaunchRequest(TaskId.of("loud"), 1,
        List.of("sh", "-c", "echo FIRST; head -c 3000000 /dev/zero | tr '\\0' x; echo; echo END-OF-OUTPUT"), new TreeMap<>(),
        dir.resolve("work"), out, dir.resolve("err.log")), exits);

    assertThat(exits.await()).isZero();

    String text = Files.readString(out);
    assertThat(Files.size(out)).isLessThanOrEqualTo(CAP);
    assertThat(text).startsWith("FIRST\nxxx").contains(" bytes of output cut here;")
        .endsWith("xxx\nEND-OF-OUTPUT\n");
  }
}
