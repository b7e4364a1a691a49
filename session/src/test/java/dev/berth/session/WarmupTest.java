package dev.berth.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.berth.journal.SqliteJournal;
import dev.berth.runtime.exec.LocalProcessExecutor;
import dev.berth.runtime.gpu.NvmlGpuProbe;
import dev.berth.runtime.probe.OshiHostProbe;
import java.nio.file.Path;
import java.time.Instant;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The warm-up runs beside a session's start without getting in its way. */
class WarmupTest {

  @TempDir Path dir;

  @Test
  void theSessionsPartsAreMadeWhileTheWarmUpLoadsThemAndItBeginsOnce() throws Exception {
    Warmup.begin();
    Warmup.begin();

    CompletableFuture<Void> parts = CompletableFuture.runAsync(() -> {
      try {
        SqliteJournal.create(dir.resolve("journal.db")).close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
      NvmlGpuProbe.load();
      LocalProcessExecutor.prepare();
      new OshiHostProbe().read(Instant.EPOCH, new TreeMap<>());
    });

    parts.get(120, TimeUnit.SECONDS);
    assertThat(parts).isCompleted();
    assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> t.getName().equals("berth-warmup")).hasSizeLessThanOrEqualTo(1);
    assertThat(dir.resolve("journal.db")).isRegularFile();
  }
}
