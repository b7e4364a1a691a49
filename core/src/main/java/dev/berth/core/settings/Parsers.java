package dev.berth.core.settings;

import dev.berth.core.gpu.PlacementPolicyName;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** Parsers for the kinds of values specs, configs and the Java builders hold. Each names the value it rejects. */
public final class Parsers {

  private static final Pattern NUMBER_TEXT = Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?");
  private static final Pattern NEGATIVE_WHOLE = Pattern.compile("-[0-9]+");
  private static final Pattern BARE_FRACTION = Pattern.compile("[0-9]+\\.[0-9]+");
  private static final Pattern DEVICE_TEXT = Pattern.compile("cpu|cuda|cuda:[0-9]{1,4}");
  private static final double MAX_CPUS = 1_000_000;

  private Parsers() {}

  /** Any single value, as written. */
  public static final ValueParser<String> TEXT = value -> {
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    throw wrong("must be a single value", value);
  };

  /** A memory size in bytes: a whole number is bytes, text such as {@code 2GiB} goes through {@link ByteSize#parse}. */
  public static final ValueParser<Long> MEMORY = value -> {
    if (value instanceof Number n) {
      long bytes = n.longValue();
      if (bytes < 0 || n.doubleValue() != bytes) {
        throw wrong("must be >= 0 bytes", value);
      }
      return bytes;
    }
    if (!(value instanceof String s)) {
      throw wrong("must be a memory size such as 512MiB or 2GB", value);
    }
    String text = s.strip();
    if (NEGATIVE_WHOLE.matcher(text).matches()) {
      throw new InvalidValue("'" + s + "' is not a memory size; it must not be negative");
    }
    if (BARE_FRACTION.matcher(text).matches()) {
      throw new InvalidValue("'" + s + "' is not a memory size; a bare number counts bytes and must be whole;"
          + " add a unit, e.g. " + text + "GiB");
    }
    try {
      return ByteSize.parse(s);
    } catch (IllegalArgumentException e) {
      throw new InvalidValue(e.getMessage());
    }
  };

  /** A number of cores, possibly fractional or zero. */
  public static final ValueParser<Double> CORES = value -> {
    BigDecimal n = number(value).filter(v -> v.signum() >= 0).orElseThrow(() -> wrong("must be a number >= 0", value));
    if (n.doubleValue() > MAX_CPUS) {
      throw wrong("must be at most " + (long) MAX_CPUS, value);
    }
    return n.doubleValue();
  };

  /** A fraction; the range is checked where the value is used. */
  public static final ValueParser<Double> FRACTION = value -> number(value).map(BigDecimal::doubleValue)
      .orElseThrow(() -> wrong("must be a fraction in (0, 1] such as 0.8", value));

  /** A duration: a number is seconds, text such as {@code 500ms} or {@code 1h30m} (or ISO-8601's {@code PT1S}). */
  public static final ValueParser<Duration> DURATION = value -> {
    if (value instanceof Duration d) {
      if (d.isNegative()) {
        throw wrong("must be >= 0", value);
      }
      return d;
    }
    String text = value instanceof Number ? number(value).map(BigDecimal::toPlainString).orElse("") : null;
    if (value instanceof String s) {
      text = s;
    }
    if (text == null) {
      throw wrong("must be a duration such as 1s, 500ms or 10m", value);
    }
    Duration d;
    try {
      d = text.startsWith("P") ? Duration.parse(text) : DurationText.parse(text);
    } catch (IllegalArgumentException | ArithmeticException | DateTimeParseException e) {
      throw new InvalidValue("'" + text + "' is not a duration; use forms like 500ms, 2s, 10m, 1h or 1h30m,"
          + " or a number of seconds");
    }
    if (d.isNegative()) {
      throw wrong("must be >= 0", value);
    }
    return d;
  };

  /** A duration longer than zero. */
  public static final ValueParser<Duration> POSITIVE_DURATION = value -> {
    Duration d = DURATION.parse(value);
    if (d.isZero()) {
      throw new InvalidValue("must be longer than 0" + (value instanceof Duration ? " but was " + value : "")
          + "; leave it out for no limit");
    }
    return d;
  };

  /** A device: {@code cpu}, {@code cuda} or {@code cuda:N}. */
  public static final ValueParser<String> DEVICE = value -> {
    String text = TEXT.parse(value).strip();
    if (!DEVICE_TEXT.matcher(text).matches()) {
      throw new InvalidValue("'" + text + "' is not a device; use cpu, cuda (any GPU) or cuda:N such as cuda:1");
    }
    return text;
  };

  /** GPU indices: a list of whole numbers >= 0, or one; repeats are dropped. */
  public static final ValueParser<List<Integer>> DEVICE_INDICES = value -> {
    boolean listed = value instanceof List;
    List<?> items = listed ? (List<?>) value : List.of(value == null ? "" : value);
    if (value == null || items.isEmpty()) {
      throw new InvalidValue("must list at least one GPU index, e.g. [0, 1]");
    }
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      int index = listed ? item(wholeNumber(0), items, i) : wholeNumber(0).parse(items.get(i));
      if (!indices.contains(index)) {
        indices.add(index);
      }
    }
    return List.copyOf(indices);
  };

  /** A GPU placement policy, by name. */
  public static final ValueParser<PlacementPolicyName> PLACEMENT = value -> {
    if (value instanceof PlacementPolicyName p) {
      return p;
    }
    try {
      return PlacementPolicyName.of(TEXT.parse(value));
    } catch (IllegalArgumentException e) {
      throw new InvalidValue(e.getMessage());
    }
  };


  /** One of {@code choices}, written as its {@code toString()}, or the value itself. */
  @SafeVarargs
  public static <E> ValueParser<E> oneOf(E... choices) {
    List<String> names = Arrays.stream(choices).map(Object::toString).toList();
    String rule = "must be " + (names.size() == 2 ? names.get(0) + " or " + names.get(1)
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1));
    return value -> {
      for (E choice : choices) {
        if (choice.equals(value) || choice.toString().equals(value)) {
          return choice;
        }
      }
      throw wrong(rule, value);
    };
  }

  /** One text value or a list of them. */
  public static final ValueParser<List<String>> TEXT_LIST = value -> {
    if (value instanceof List<?> list) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        out.add(item(TEXT, list, i));
      }
      return List.copyOf(out);
    }
    return List.of(TEXT.parse(value));
  };

  /** true or false (also YAML's yes, no, on and off). */
  public static final ValueParser<Boolean> BOOLEAN = value -> {
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof String s) {
      switch (s.strip().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on":
          return true;
        case "false", "no", "off":
          return false;
        default:
          break;
      }
    }
    throw wrong("must be true or false", value);
  };

  /** A retry backoff factor: a number from 1 to 1000. */
  public static final ValueParser<Double> BACKOFF = value -> number(value)
      .filter(n -> n.compareTo(BigDecimal.ONE) >= 0 && n.doubleValue() <= 1000)
      .map(BigDecimal::doubleValue)
      .orElseThrow(() -> wrong("must be a number from 1 (constant delay) to 1000", value));

  /** A whole number of at least {@code min}. */
  public static ValueParser<Integer> wholeNumber(int min) {
    String rule = min == Integer.MIN_VALUE ? "must be a whole number" : "must be a whole number >= " + min;
    return value -> number(value)
        .filter(n -> n.stripTrailingZeros().scale() <= 0)
        .filter(n -> n.compareTo(BigDecimal.valueOf(min)) >= 0 && n.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0)
        .map(BigDecimal::intValueExact)
        .orElseThrow(() -> wrong(rule, value));
  }

  /** A whole number in the range of a {@code long}. */
  public static final ValueParser<Long> WHOLE_LONG = value -> number(value)
      .filter(n -> n.stripTrailingZeros().scale() <= 0)
      .filter(n -> n.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) >= 0 && n.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0)
      .map(BigDecimal::longValueExact)
      .orElseThrow(() -> wrong("must be a whole number", value));

  /** The item at {@code index} of {@code list}, parsed; a problem is placed at that index. */
  public static <T> T item(ValueParser<T> parser, List<?> list, int index) {
    try {
      return parser.parse(list.get(index));
    } catch (InvalidValue e) {
      throw e.at(index);
    }
  }

  /** The value under {@code key} of {@code map}, parsed; a problem is placed under that key. */
  public static <T> T entry(ValueParser<T> parser, Map<String, ?> map, String key) {
    try {
      return parser.parse(map.get(key));
    } catch (InvalidValue e) {
      throw e.under(key);
    }
  }

  /** A value as a message quotes it: {@code 'two'}, {@code a list}, {@code a mapping}, {@code empty}. */
  public static String describe(Object value) {
    if (value == null) {
      return "empty";
    }
    if (value instanceof String s) {
      return "'" + s + "'";
    }
    if (value instanceof List) {
      return "a list";
    }
    if (value instanceof Map) {
      return "a mapping";
    }
    return value.toString();
  }

  /** The rule, followed by the value that broke it. */
  public static InvalidValue wrong(String rule, Object value) {
    return new InvalidValue(rule + " but was " + describe(value));
  }

  /**
   * The numeric value of a number, or of text that is plainly a number such as {@code "2"} (people
   * quote numbers; refusing them would be pedantic). NaN and the infinities are not numbers here.
   */
  public static Optional<BigDecimal> number(Object value) {
    if (value instanceof BigDecimal b) {
      return Optional.of(b);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? Optional.of(new BigDecimal(value.toString())) : Optional.empty();
    }
    if (value instanceof Number n) {
      return Optional.of(new BigDecimal(n.toString()));
    }
    if (value instanceof String s && NUMBER_TEXT.matcher(s.strip()).matches()) {
      return Optional.of(new BigDecimal(s.strip()));
    }
    return Optional.empty();
  }
}
