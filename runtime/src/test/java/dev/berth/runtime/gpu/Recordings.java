package dev.berth.runtime.gpu;

import dev.berth.os.CommandRunner;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The recorded nvidia-smi outputs under {@code nvidia-smi/} on the test class path. */
final class Recordings {

  static final long MIB = 1L << 20;

  private Recordings() {}

  static String read(String name) {
    try (InputStream in = Recordings.class.getResourceAsStream("/nvidia-smi/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no recording " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A runner that answers both nvidia-smi queries from a recorded machine, exiting 0. */
  static ScriptedRunner machine(String prefix) {
    return new ScriptedRunner()
        .answer(NvidiaSmiCsv.QUERY_GPUS, CommandRunner.Result.exited(0, read(prefix + ".query-gpu.txt")))
        .answer(NvidiaSmiCsv.QUERY_COMPUTE_APPS, CommandRunner.Result.exited(0, read(prefix + ".query-compute-apps.txt")));
  }
}
