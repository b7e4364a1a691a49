package dev.berth.runtime.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.core.lifecycle.MeasuredUsage;
import dev.berth.core.model.TaskId;
import dev.berth.runtime.contain.Container;
import dev.berth.runtime.contain.TaskContainment;
import dev.berth.spi.LaunchRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** When, around an attempt's exit, the executor reads, empties and removes its container. */
class ContainerOrderTest {

  @TempDir Path dir;

  @Test
  void anExitIsReportedAfterItsContainerIsEmptiedAndBeforeItIsRemoved() throws Exception {
    List<String> steps = new CopyOnWriteArrayList<>();
    CompletableFuture<Void> removed = new CompletableFuture<>();
    LocalProcessExecutor executor = new LocalProcessExecutor(new Recording(steps, removed), Duration.ofSeconds(60));
    try {
      executor.launch(request(), exitCode -> steps.add("exit reported"));
      removed.get(Exits.WAIT_SECONDS, TimeUnit.SECONDS);
    } finally {
      executor.close();
    }

    assertThat(steps).containsSubsequence("emptied", "exit reported", "removed");
    assertThat(steps).containsOnlyOnce("emptied", "exit reported", "removed");
  }

  private LaunchRequest request() {
    return new LaunchRequest(TaskId.of("t"), 1, List.of("true"), new TreeMap<>(), dir.resolve("work"),
        dir.resolve("t.out"), dir.resolve("t.err"));
  }

  /** Process-tree containers that note when each is emptied and removed. */
  private record Recording(List<String> steps, CompletableFuture<Void> removed) implements TaskContainment {

    @Override
    public String mode() {
      return "recording";
    }

    @Override
    public String describe() {
      return "recording";
    }

    @Override
    public boolean limitsMemory() {
      return false;
    }

    @Override
    public Container open(String name, long memoryLimitBytes) {
      Container inner = TaskContainment.processTree(name);
      return new Container() {
        @Override
        public List<String> command(List<String> argv) {
          return inner.command(argv);
        }

        @Override
        public Map<String, String> environment() {
          return inner.environment();
        }

        @Override
        public MeasuredUsage usage() {
          return inner.usage();
        }

        @Override
        public boolean oomKilled() {
          return inner.oomKilled();
        }

        @Override
        public List<ProcessHandle> signalAll(boolean force) {
          return inner.signalAll(force);
        }

        @Override
        public boolean isEmpty() {
          return inner.isEmpty();
        }

        @Override
        public void empty() {
          steps.add("emptied");
        }

        @Override
        public void close() {
          inner.close();
          steps.add("removed");
          removed.complete(null);
        }
      };
    }
  }
}
