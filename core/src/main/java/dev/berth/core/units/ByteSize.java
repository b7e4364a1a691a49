package dev.berth.core.units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and formats memory sizes.
 *
 * <p>Accepted forms: a bare integer (bytes), or a number with an optional fraction and an optional
 * space followed by a unit. Decimal units (kB/KB, MB, GB, TB, PB = 1000^n bytes) and binary units
 * (KiB, MiB, GiB, TiB, PiB = 1024^n bytes) are bytes; the same prefixes with a lower-case {@code b}
 * are bits. Fractions round up to a whole byte. Anything else is rejected: never a silent zero.
 */
public final class ByteSize {

  private static final Pattern FORM =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)");
  private static final Map<String, BigDecimal> UNITS = units();

  private ByteSize() {}

  /** Bare numbers of bytes below this are taken as a unit left out, where a size is reserved. */
  private static final long SMALLEST_BARE = 1L << 20;
  private static final Pattern BARE = Pattern.compile("\\s*([0-9]{1,7})\\s*");

  /**
   * Why {@code text} is likely a slip, when it is a bare number of bytes from 1 to 1 MiB less one: nobody
   * reserves or simulates 10 bytes on purpose. E.g. {@code '10' would reserve 10 bytes (a bare number
   * counts bytes); did you mean 10GiB?} for {@code wouldBe} "reserve".
   */
  public static Optional<String> bareSlip(String text, String wouldBe) {
    Matcher m = text == null ? null : BARE.matcher(text);
    if (m == null || !m.matches()) {
      return Optional.empty();
    }
    long bytes = Long.parseLong(m.group(1));
    return bytes == 0 || bytes >= SMALLEST_BARE ? Optional.empty() : Optional.of("'" + bytes + "' would " + wouldBe
        + " " + bytes + " bytes (a bare number counts bytes); did you mean " + bytes + "GiB?");
  }

  /**
   * Parses a size such as {@code "1.5GiB"}, {@code "456 MB"} or {@code "2048"}.
   *
   * @throws IllegalArgumentException naming the rule when the text is not a size
   */
  public static long parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("a memory size is required, e.g. 512MiB or 2GB");
    }
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a memory size; use a number of bytes or a number with a unit"
              + " such as 512MiB, 1.5GiB or 2GB");
    }
    BigDecimal factor = UNITS.get(m.group(2));
    if (factor == null) {
      throw new IllegalArgumentException(
          "'" + text + "' has unknown unit '" + m.group(2) + "'; use one of B, kB, KB, MB, GB, TB,"
              + " KiB, MiB, GiB, TiB (bytes) or b, kb, Mb, Gb, Kib, Mib, Gib (bits)");
    }
    BigDecimal bytes = new BigDecimal(m.group(1)).multiply(factor).setScale(0, RoundingMode.CEILING);
    if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new IllegalArgumentException("'" + text + "' is too large for a memory size");
    }
    return bytes.longValueExact();
  }

  /** Formats bytes with the largest binary unit that keeps at least one whole unit, e.g. 1.5 GiB. */
  public static String format(long bytes) {
    String[] names = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double value = Math.abs((double) bytes);
    int unit = 0;
    while (value >= 1024 && unit < names.length - 1) {
      value /= 1024;
      unit++;
    }
    String sign = bytes < 0 ? "-" : "";
    if (unit == 0) {
      return sign + (long) value + " B";
    }
    if (value == Math.rint(value)) { // a whole number of units, as most sizes are: no formatter needed
      return sign + (long) value + " " + names[unit];
    }
    String number = String.format(Locale.ROOT, "%.1f", value);
    if (number.endsWith(".0")) {
      number = number.substring(0, number.length() - 2);
    }
    return sign + number + " " + names[unit];
  }

  private static Map<String, BigDecimal> units() {
    Map<String, BigDecimal> units = new TreeMap<>();
    BigDecimal eighth = new BigDecimal("0.125");
    units.put("", BigDecimal.ONE);
    units.put("B", BigDecimal.ONE);
    units.put("b", eighth);
    String[] prefixes = {"K", "M", "G", "T", "P"};
    for (int i = 0; i < prefixes.length; i++) {
      BigDecimal decimal = BigDecimal.valueOf(1000).pow(i + 1);
      BigDecimal binary = BigDecimal.valueOf(1024).pow(i + 1);
      String p = prefixes[i];
      units.put(p + "B", decimal);
      units.put(p + "iB", binary);
      units.put(p + "b", decimal.multiply(eighth));
      units.put(p + "ib", binary.multiply(eighth));
    }
    units.put("kB", BigDecimal.valueOf(1000));
    units.put("kb", BigDecimal.valueOf(125));
    return Map.copyOf(units);
  }
}
