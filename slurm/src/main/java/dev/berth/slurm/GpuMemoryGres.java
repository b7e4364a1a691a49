package dev.berth.slurm;

import dev.berth.core.units.ByteSize;
import java.util.regex.Pattern;

/**
 * How a task's GPU-memory share ({@code gpu-memory: 8GiB}) is asked of Slurm, which knows whole GPUs,
 * not shares:
 *
 * <ul>
 *   <li>{@code none} (the default): the task gets one whole GPU, {@code --gres=gpu:1};
 *   <li>{@code shard}: one GPU shard, {@code --gres=shard:1} (Slurm 22.05's way to share a GPU);
 *   <li>{@code NAME:SIZE}, e.g. {@code gpumem:1MiB} or {@code shard:10GiB}: a count GRES in units of
 *       SIZE, rounded up, {@code --gres=gpumem:8192} for 8 GiB.
 * </ul>
 *
 * @param name the GRES name; empty for {@code none}
 * @param bytesPerUnit bytes one unit of the GRES stands for; 0 for one unit per task
 */
public record GpuMemoryGres(String name, long bytesPerUnit) {

  /** A share gets a whole GPU. */
  public static final GpuMemoryGres NONE = new GpuMemoryGres("", 0);

  private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");

  /** Validates the name and unit. */
  public GpuMemoryGres {
    if (name == null || (!name.isEmpty() && !NAME.matcher(name).matches())) {
      throw new IllegalArgumentException("GRES name '" + name + "' must match " + NAME.pattern());
    }
    if (bytesPerUnit < 0 || (name.isEmpty() && bytesPerUnit != 0)) {
      throw new IllegalArgumentException("bytesPerUnit must be >= 0, and 0 for none, but was " + bytesPerUnit);
    }
  }

  /** One shard per task. */
  public static GpuMemoryGres shard() {
    return new GpuMemoryGres("shard", 0);
  }

  /** A count GRES {@code name} whose one unit stands for {@code bytesPerUnit} bytes of GPU memory. */
  public static GpuMemoryGres count(String name, long bytesPerUnit) {
    if (bytesPerUnit <= 0) {
      throw new IllegalArgumentException("a count GRES needs a unit > 0 bytes but had " + bytesPerUnit);
    }
    return new GpuMemoryGres(name, bytesPerUnit);
  }

  /**
   * Parses {@code none}, {@code shard} or {@code NAME:SIZE} such as {@code gpumem:1MiB}.
   *
   * @throws IllegalArgumentException naming the accepted forms
   */
  public static GpuMemoryGres parse(String text) {
    String s = text == null ? "" : text.strip();
    if (s.equals("none")) {
      return NONE;
    }
    if (s.equals("shard")) {
      return shard();
    }
    int colon = s.indexOf(':');
    if (colon > 0 && NAME.matcher(s.substring(0, colon)).matches()) {
      return count(s.substring(0, colon), ByteSize.parse(s.substring(colon + 1)));
    }
    throw new IllegalArgumentException("'" + text + "' is not a GPU-memory GRES; use none, shard, or NAME:SIZE"
        + " such as gpumem:1MiB");
  }

  /** The {@code --gres} value for a share of {@code gpuMemoryBytes} (> 0) on one GPU. */
  public String gresFor(long gpuMemoryBytes) {
    if (gpuMemoryBytes <= 0) {
      throw new IllegalArgumentException("a GPU-memory share must be > 0 bytes but was " + gpuMemoryBytes);
    }
    if (name.isEmpty()) {
      return "gpu:1";
    }
    long units = bytesPerUnit == 0 ? 1 : Math.max(1, ceilDiv(gpuMemoryBytes, bytesPerUnit));
    return name + ":" + units;
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }

  @Override
  public String toString() {
    return name.isEmpty() ? "none" : bytesPerUnit == 0 ? name : name + ":" + ByteSize.format(bytesPerUnit);
  }
}
