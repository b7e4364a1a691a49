package dev.berth.testkit;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuProcess;
import dev.berth.spi.GpuProbe;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@link GpuProbe} that reports what the test scripted. Devices are named {@code Fake GPU},
 * have UUID {@code GPU-FAKE-<index>}, unknown utilization, and free memory = total - used (0 used
 * unless scripted). {@link #failing} makes readings fail as a real probe's do: the last good reading
 * is served and {@link #lastError} says why. Setters return the probe. Thread-safe.
 */
public final class FakeGpuProbe implements GpuProbe {

  private final Map<Integer, Scripted> devices = new TreeMap<>();
  private String source = NVML;
  private String error;
  private List<GpuDevice> lastGood = List.of();
  private int reads;
  private boolean closed;

  /** A probe with no devices; add some with {@link #device}. */
  public FakeGpuProbe() {}

  @Override
  public synchronized List<GpuDevice> read() {
    reads++;
    if (error != null) {
      return lastGood;
    }
    List<GpuDevice> reading = new ArrayList<>();
    for (Map.Entry<Integer, Scripted> e : devices.entrySet()) {
      Scripted s = e.getValue();
      long used = Math.min(s.used, s.total);
      reading.add(new GpuDevice(e.getKey(), "GPU-FAKE-" + e.getKey(), s.name, s.total, used, s.total - used,
          s.utilization, s.simulated, s.processes));
    }
    lastGood = List.copyOf(reading);
    return lastGood;
  }

  /** Adds (or replaces) a device with {@code totalGiB} of memory (fractions allowed), all free. */
  public synchronized FakeGpuProbe device(int index, double totalGiB) {
    return deviceBytes(index, Math.round(totalGiB * Snapshots.GIB));
  }

  /** Adds (or replaces) a device with {@code totalBytes} of memory, all free. */
  public synchronized FakeGpuProbe deviceBytes(int index, long totalBytes) {
    Scripted s = new Scripted();
    s.total = totalBytes;
    devices.put(index, s);
    return this;
  }

  /** Memory in use on the device, by anyone. */
  public synchronized FakeGpuProbe used(int index, long bytes) {
    scripted(index).used = bytes;
    return this;
  }

  /** A compute process on the device; its memory is not added to {@link #used} (script both). */
  public synchronized FakeGpuProbe process(int index, long pid, long bytes) {
    scripted(index).processes.add(new GpuProcess(pid, bytes));
    return this;
  }

  /** The device's product name. */
  public synchronized FakeGpuProbe name(int index, String name) {
    scripted(index).name = name;
    return this;
  }

  /** The device's compute busy fraction; negative means unknown (the default). */
  public synchronized FakeGpuProbe utilization(int index, double fraction) {
    scripted(index).utilization = fraction;
    return this;
  }

  /** Marks the device as simulated. */
  public synchronized FakeGpuProbe simulated(int index) {
    scripted(index).simulated = true;
    return this;
  }

  /** Removes the device, as when a GPU falls off the bus. */
  public synchronized FakeGpuProbe remove(int index) {
    devices.remove(index);
    return this;
  }

  /** What {@link #source()} reports; {@code nvml} by default. */
  public synchronized FakeGpuProbe source(String source) {
    this.source = source;
    return this;
  }

  /** Makes readings fail with {@code error} (the last good reading is served); null to recover. */
  public synchronized FakeGpuProbe failing(String error) {
    this.error = error;
    return this;
  }

  @Override
  public synchronized String source() {
    return source;
  }

  @Override
  public synchronized Optional<String> lastError() {
    return Optional.ofNullable(error);
  }

  @Override
  public synchronized void close() {
    closed = true;
  }

  /** How many readings were taken. */
  public synchronized int reads() {
    return reads;
  }

  /** Whether {@link #close} was called. */
  public synchronized boolean closed() {
    return closed;
  }

  private Scripted scripted(int index) {
    Scripted s = devices.get(index);
    if (s == null) {
      throw new IllegalArgumentException("no fake GPU with index " + index + "; add it with device(" + index + ", GiB)");
    }
    return s;
  }

  private static final class Scripted {
    long total;
    long used;
    String name = "Fake GPU";
    double utilization = GpuDevice.UNKNOWN_UTILIZATION;
    boolean simulated;
    final List<GpuProcess> processes = new ArrayList<>();
  }
}
