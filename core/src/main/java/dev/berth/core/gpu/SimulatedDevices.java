package dev.berth.core.gpu;

import dev.berth.core.units.ByteSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code --gpus sim:...}: GPUs that exist only for Berth, to try placement and GPU memory
 * admission on a machine without one.
 *
 * <p>Accepted forms: {@code sim:} followed by a comma-separated list of items, each a memory size
 * ({@code 24GiB}) or a count, {@code x} and a size ({@code 2x80GiB}). Items may be mixed:
 * {@code sim:2x80GiB,24GiB} is three devices. Sizes use {@link ByteSize}. Devices are numbered
 * from 0 in the order written, have UUID {@code SIM-<index>}, name
 * {@code Simulated GPU <size>}, all memory free and unknown utilization.
 */
public final class SimulatedDevices {

  /** The prefix that marks a simulated selection. */
  public static final String PREFIX = "sim:";

  /** The most simulated devices one selection may describe. */
  public static final int MAX_DEVICES = 256;

  static final String FORMS =
      "use sim: followed by sizes or COUNTxSIZE items, e.g. sim:2x80GiB or sim:24GiB,24GiB,80GiB";

  private static final Pattern REPEATED = Pattern.compile("([0-9]+)\\s*[xX]\\s*(.+)");

  private SimulatedDevices() {}

  /**
   * The devices a {@code sim:...} value describes.
   *
   * @throws IllegalArgumentException stating the accepted forms when the value is not one
   */
  public static List<GpuDevice> parse(String text) {
    if (text == null || !text.strip().startsWith(PREFIX)) {
      throw new IllegalArgumentException("'" + text + "' is not a simulated GPU list; " + FORMS);
    }
    String body = text.strip().substring(PREFIX.length()).strip();
    if (body.isEmpty()) {
      throw new IllegalArgumentException("'" + text + "' lists no GPUs; " + FORMS);
    }
    List<Long> sizes = new ArrayList<>();
    for (String raw : body.split(",", -1)) {
      String item = raw.strip();
      if (item.isEmpty()) {
        throw new IllegalArgumentException("'" + text + "' has an empty item; " + FORMS);
      }
      int count = 1;
      String size = item;
      Matcher m = REPEATED.matcher(item);
      if (m.matches()) {
        count = parseCount(text, m.group(1));
        size = m.group(2).strip();
      }
      long bytes = parseSize(text, size);
      for (int i = 0; i < count; i++) {
        if (sizes.size() == MAX_DEVICES) {
          throw new IllegalArgumentException(
              "'" + text + "' describes more than " + MAX_DEVICES + " simulated GPUs");
        }
        sizes.add(bytes);
      }
    }
    List<GpuDevice> devices = new ArrayList<>();
    for (int i = 0; i < sizes.size(); i++) {
      devices.add(device(i, sizes.get(i)));
    }
    return List.copyOf(devices);
  }

  /** One simulated device with all memory free. */
  public static GpuDevice device(int index, long totalBytes) {
    return new GpuDevice(
        index, "SIM-" + index, "Simulated GPU " + ByteSize.format(totalBytes), totalBytes, 0, totalBytes,
        GpuDevice.UNKNOWN_UTILIZATION, true, List.of());
  }

  private static int parseCount(String text, String digits) {
    int count;
    try {
      count = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      count = Integer.MAX_VALUE;
    }
    if (count < 1 || count > MAX_DEVICES) {
      throw new IllegalArgumentException(
          "'" + text + "': a count must be between 1 and " + MAX_DEVICES + " but was " + digits + "; " + FORMS);
    }
    return count;
  }

  private static long parseSize(String text, String size) {
    long bytes;
    try {
      bytes = ByteSize.parse(size);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "': " + e.getMessage() + "; " + FORMS, e);
    }
    if (bytes <= 0) {
      throw new IllegalArgumentException("'" + text + "': a simulated GPU needs more than 0 bytes; " + FORMS);
    }
    Optional<String> slip = ByteSize.bareSlip(size, "be a GPU of"); // nobody simulates a few bytes on purpose
    if (slip.isPresent()) {
      throw new IllegalArgumentException("'" + text + "': " + slip.get());
    }
    return bytes;
  }
}
