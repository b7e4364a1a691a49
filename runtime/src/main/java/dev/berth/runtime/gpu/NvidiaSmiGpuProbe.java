package dev.berth.runtime.gpu;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.os.CommandRunner;
import dev.berth.spi.GpuProbe;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads the GPUs by running {@code nvidia-smi} twice per reading: {@link NvidiaSmiCsv#QUERY_GPUS}
 * and {@link NvidiaSmiCsv#QUERY_COMPUTE_APPS}. Slower than {@link NvmlGpuProbe} (tens of
 * milliseconds per run) but needs only the binary on the PATH.
 *
 * <p>When the GPU query fails (cannot start, times out, exits non-zero, prints something else) the
 * probe serves the last good reading and {@link #lastError} says why. "No devices were found" is a
 * good reading with no devices. When only the process query fails, the new reading is served
 * without processes and {@link #lastError} says so. Thread-safe: readings are serialized.
 */
public final class NvidiaSmiGpuProbe implements GpuProbe {

  /** How long one {@code nvidia-smi} run may take by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

  private final CommandRunner runner;
  private final Duration timeout;
  private List<GpuDevice> last = List.of();
  private String lastError;
  private boolean answered;

  /** A probe that runs {@code nvidia-smi} through {@code runner} with the default timeout. */
  public NvidiaSmiGpuProbe(CommandRunner runner) {
    this(runner, DEFAULT_TIMEOUT);
  }

  /** A probe that runs {@code nvidia-smi} through {@code runner}, each run limited to {@code timeout}. */
  public NvidiaSmiGpuProbe(CommandRunner runner, Duration timeout) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /**
   * The probe if {@code nvidia-smi} answers the GPU query now (with devices or with "No devices
   * were found"); otherwise empty, after telling {@code problems} why.
   */
  public static Optional<NvidiaSmiGpuProbe> detect(CommandRunner runner, Consumer<String> problems) {
    NvidiaSmiGpuProbe probe = new NvidiaSmiGpuProbe(runner);
    probe.read();
    if (!probe.answered()) {
      problems.accept(probe.lastError().orElse("nvidia-smi did not answer"));
      return Optional.empty();
    }
    return Optional.of(probe);
  }

  @Override
  public synchronized List<GpuDevice> read() {
    CommandRunner.Result gpus = run(NvidiaSmiCsv.QUERY_GPUS);
    if (gpus == null) {
      return last;
    }
    if (!gpus.succeeded() && !NvidiaSmiCsv.saysNoDevices(gpus.stdout())) {
      return fail(failure(gpus));
    }
    List<GpuDevice> devices;
    try {
      devices = NvidiaSmiCsv.parseGpus(gpus.stdout());
    } catch (IllegalArgumentException e) {
      return fail(e.getMessage());
    }
    answered = true;
    lastError = null;
    if (!devices.isEmpty()) {
      devices = withProcesses(devices);
    }
    last = devices;
    return last;
  }

  private List<GpuDevice> withProcesses(List<GpuDevice> devices) {
    CommandRunner.Result apps = run(NvidiaSmiCsv.QUERY_COMPUTE_APPS);
    if (apps == null) {
      lastError = "processes unknown: " + lastError;
      return devices;
    }
    if (!apps.succeeded()) {
      lastError = "processes unknown: " + failure(apps);
      return devices;
    }
    try {
      return NvidiaSmiCsv.attach(devices, NvidiaSmiCsv.parseComputeApps(apps.stdout()));
    } catch (IllegalArgumentException e) {
      lastError = "processes unknown: " + e.getMessage();
      return devices;
    }
  }

  /** Runs one query; null (with {@link #lastError} set) when it could not be run at all. */
  private CommandRunner.Result run(List<String> argv) {
    try {
      return runner.run(argv, timeout);
    } catch (IOException e) {
      lastError = "nvidia-smi could not be run: " + e.getMessage();
      return null;
    } catch (RuntimeException e) {
      lastError = "nvidia-smi could not be run: " + e;
      return null;
    }
  }

  private String failure(CommandRunner.Result result) {
    if (result.timedOut()) {
      return "nvidia-smi did not answer within " + timeout.toMillis() + " ms";
    }
    return "nvidia-smi exited with " + result.exitCode() + ": " + NvidiaSmiCsv.firstLine(result.stdout(), result.stderr());
  }

  private List<GpuDevice> fail(String error) {
    lastError = error;
    return last;
  }

  /** Whether the GPU query has answered at least once. */
  synchronized boolean answered() {
    return answered;
  }

  @Override
  public String source() {
    return NVIDIA_SMI;
  }

  @Override
  public synchronized Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }
}
