package dev.berth.runtime.gpu;

import dev.berth.core.gpu.GpuDevice;
import dev.berth.core.gpu.GpuDevices;
import dev.berth.spi.GpuProbe;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/** Another probe's readings restricted to some device indices ({@code --gpus 0,2}); indices are kept. */
final class RestrictedGpuProbe implements GpuProbe {

  private final GpuProbe inner;
  private final SortedSet<Integer> indices;

  RestrictedGpuProbe(GpuProbe inner, SortedSet<Integer> indices) {
    this.inner = inner;
    this.indices = Collections.unmodifiableSortedSet(new TreeSet<>(indices));
  }

  @Override
  public List<GpuDevice> read() {
    return GpuDevices.restrict(inner.read(), indices);
  }

  @Override
  public String source() {
    return inner.source();
  }

  @Override
  public Optional<String> lastError() {
    return inner.lastError();
  }

  @Override
  public void close() {
    inner.close();
  }

  /** The indices kept. */
  SortedSet<Integer> indices() {
    return indices;
  }
}
