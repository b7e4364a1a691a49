package dev.berth.core.gpu;

import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which GPUs Berth may use: the parsed value of {@code --gpus}.
 *
 * <ul>
 *   <li>{@code auto} (the default): every GPU a probe finds (NVML, else nvidia-smi, else none);
 *   <li>{@code none}: no GPUs;
 *   <li>a comma-separated list of device indices such as {@code 0,2}: only those GPUs, keeping their
 *       indices;
 *   <li>{@code sim:...}: simulated GPUs, see {@link SimulatedDevices}.
 * </ul>
 *
 * @param kind which of the forms
 * @param indices the selected indices for {@link Kind#INDICES}, empty otherwise
 * @param simulated the simulated devices for {@link Kind#SIMULATED}, empty otherwise
 */
public record DeviceSelection(Kind kind, SortedSet<Integer> indices, List<GpuDevice> simulated) {

  /** The forms of a selection. */
  public enum Kind {
    /** Every GPU a real probe finds. */
    AUTO,
    /** No GPUs at all. */
    NONE,
    /** The real GPUs with the given indices. */
    INDICES,
    /** Simulated GPUs. */
    SIMULATED
  }

  /** The value {@code --gpus} has when it is not given. */
  public static final String DEFAULT = "auto";

  /** The rule an invalid value breaks, for error messages. */
  public static final String RULE =
      "use auto, none, device indices such as 0,2, or simulated GPUs such as sim:2x80GiB or"
          + " sim:24GiB,24GiB,80GiB";

  /** The most indices accepted (no machine has this many GPUs). */
  public static final int MAX_INDEX = 1023;

  /** Validates that the parts match the kind and copies them. */
  public DeviceSelection {
    Objects.requireNonNull(kind, "kind");
    indices = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(indices));
    simulated = List.copyOf(simulated);
    if ((kind == Kind.INDICES) == indices.isEmpty()) {
      throw new IllegalArgumentException("indices are given exactly for an INDICES selection");
    }
    if ((kind == Kind.SIMULATED) == simulated.isEmpty()) {
      throw new IllegalArgumentException("simulated devices are given exactly for a SIMULATED selection");
    }
  }

  /** Every GPU a real probe finds. */
  public static DeviceSelection auto() {
    return new DeviceSelection(Kind.AUTO, new TreeSet<>(), List.of());
  }

  /** No GPUs. */
  public static DeviceSelection none() {
    return new DeviceSelection(Kind.NONE, new TreeSet<>(), List.of());
  }

  /** The real GPUs with these indices (at least one). */
  public static DeviceSelection indices(Collection<Integer> indices) {
    return new DeviceSelection(Kind.INDICES, new TreeSet<>(indices), List.of());
  }

  /** These simulated GPUs (at least one). */
  public static DeviceSelection simulated(List<GpuDevice> devices) {
    return new DeviceSelection(Kind.SIMULATED, new TreeSet<>(), devices);
  }

  /**
   * Parses a {@code --gpus} value. Keywords are case-insensitive and surrounding spaces are ignored.
   *
   * @throws IllegalArgumentException naming the value and the rule when it is not a selection
   */
  public static DeviceSelection parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("an empty GPU selection is not valid; " + RULE);
    }
    String value = text.strip();
    String lower = value.toLowerCase(Locale.ROOT);
    if (lower.equals("auto")) {
      return auto();
    }
    if (lower.equals("none")) {
      return none();
    }
    if (lower.startsWith(SimulatedDevices.PREFIX)) {
      return simulated(SimulatedDevices.parse(SimulatedDevices.PREFIX + value.substring(SimulatedDevices.PREFIX.length())));
    }
    if (!value.matches("[0-9\\s,]+")) {
      throw new IllegalArgumentException("'" + text + "' is not a GPU selection; " + RULE);
    }
    SortedSet<Integer> indices = new TreeSet<>();
    for (String raw : value.split(",", -1)) {
      String item = raw.strip();
      if (!item.matches("[0-9]+")) {
        throw new IllegalArgumentException(
            "'" + text + "' is not a GPU selection: device indices are whole numbers separated by commas, e.g. 0,2");
      }
      int index = item.length() > 4 ? Integer.MAX_VALUE : Integer.parseInt(item);
      if (index > MAX_INDEX) {
        throw new IllegalArgumentException(
            "'" + text + "': device index " + item + " is too large (at most " + MAX_INDEX + ")");
      }
      if (!indices.add(index)) {
        throw new IllegalArgumentException("'" + text + "' lists device index " + index + " twice");
      }
    }
    return indices(indices);
  }

  /**
   * The selection as it would be written on the command line, e.g. {@code 0,2} or
   * {@code sim:80GiB,80GiB} (simulated sizes as {@link dev.berth.core.units.ByteSize#format} rounds them).
   */
  @Override
  public String toString() {
    return switch (kind) {
      case AUTO -> "auto";
      case NONE -> "none";
      case INDICES -> indices.stream().map(String::valueOf).collect(Collectors.joining(","));
      case SIMULATED -> SimulatedDevices.PREFIX + simulated.stream()
          .map(d -> dev.berth.core.units.ByteSize.format(d.totalMemoryBytes()).replace(" ", ""))
          .collect(Collectors.joining(","));
    };
  }
}
