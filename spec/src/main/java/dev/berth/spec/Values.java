package dev.berth.spec;

import dev.berth.core.gpu.PlacementPolicies;
import dev.berth.core.units.ByteSize;
import dev.berth.core.units.DurationText;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Parsers for the kinds of values specs and configs hold. Each names the value it rejects. */
final class Values {

  private static final Pattern DECIMAL_TEXT = Pattern.compile("[+-]?[0-9]+(\\.[0-9]+)?");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final double MAX_CPUS = 1_000_000;

  private Values() {}

  /** Any scalar except null, as written. */
  static final ValueParser<String> TEXT = (node, field) -> {
    if (node instanceof YamlNode.Scalar s && !s.isNull()) {
      return s.text();
    }
    throw field.problem("must be a single value but was " + node.describe());
  };

  /** A run or group name: letters, digits, {@code . _ -}, and not {@code .} or {@code ..}. */
  static final ValueParser<String> NAME_TEXT = (node, field) -> {
    String text = TEXT.parse(node, field);
    if (!NAME.matcher(text).matches() || text.equals(".") || text.equals("..")) {
      throw field.problem("'" + text + "' is not a valid name; use only letters, digits, '.', '_'"
          + " and '-' (and not '.' or '..')");
    }
    return text;
  };

  /** A memory size in bytes: an integer is bytes, text goes through {@link ByteSize#parse}. */
  static final ValueParser<Long> MEMORY = (node, field) -> {
    String expected = "must be a memory size such as 512MiB or 2GB but was ";
    if (!(node instanceof YamlNode.Scalar s) || s.isNull()) {
      throw field.problem(expected + node.describe());
    }
    switch (s.kind()) {
      case INTEGER:
        if (s.number() == null || s.number().signum() < 0) {
          throw field.problem("'" + s.text() + "' is not a memory size; it must not be negative");
        }
        if (s.number().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
          throw field.problem("'" + s.text() + "' is too large for a memory size");
        }
        return s.number().longValueExact();
      case DECIMAL:
        throw field.problem("'" + s.text() + "' is not a memory size; a bare number counts bytes and"
            + " must be whole; add a unit, e.g. " + s.text() + "GiB");
      case STRING:
        try {
          return ByteSize.parse(s.text());
        } catch (IllegalArgumentException e) {
          throw field.problem(e.getMessage());
        }
      default:
        throw field.problem(expected + node.describe());
    }
  };

  /** A number of cores, possibly fractional or zero. */
  static final ValueParser<Double> CORES = (node, field) -> {
    Optional<BigDecimal> n = number(node);
    if (n.isEmpty() || n.get().signum() < 0) {
      throw field.problem("must be a number >= 0 but was " + node.describe());
    }
    if (n.get().doubleValue() > MAX_CPUS) {
      throw field.problem("must be at most " + (long) MAX_CPUS + " but was " + node.describe());
    }
    return n.get().doubleValue();
  };

  /** A fraction; the range is checked where the value is used. */
  static final ValueParser<Double> FRACTION = (node, field) -> number(node)
      .map(BigDecimal::doubleValue)
      .orElseThrow(() -> field.problem("must be a fraction in (0, 1] such as 0.8 but was " + node.describe()));

  /** A duration: an integer is seconds, text such as {@code 500ms} or {@code 1h30m}. */
  static final ValueParser<Duration> DURATION = (node, field) -> {
    if (!(node instanceof YamlNode.Scalar s) || s.isNull() || s.kind() == YamlNode.Kind.BOOLEAN) {
      throw field.problem("must be a duration such as 1s, 500ms or 10m but was " + node.describe());
    }
    String text = s.number() != null ? s.number().toPlainString() : s.text();
    try {
      return DurationText.parse(text);
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw field.problem("'" + s.text() + "' is not a duration; use forms like 500ms, 2s, 10m, 1h or 1h30m,"
          + " or a number of seconds");
    }
  };

  /** A device: {@code cpu}, {@code cuda} or {@code cuda:N}. */
  static final ValueParser<String> DEVICE = (node, field) -> {
    String text = TEXT.parse(node, field).strip();
    if (!text.equals("cpu") && !text.equals("cuda") && !text.matches("cuda:[0-9]{1,4}")) {
      throw field.problem("'" + text + "' is not a device; use cpu, cuda (any GPU) or cuda:N such as cuda:1");
    }
    return text;
  };

  /** GPU indices: a list of whole numbers >= 0, or one. */
  static final ValueParser<List<Integer>> DEVICE_INDICES = (node, field) -> {
    List<YamlNode> items = node instanceof YamlNode.Sequence seq ? seq.items() : List.of(node);
    if (items.isEmpty()) {
      throw field.problem("must list at least one GPU index, e.g. [0, 1]");
    }
    List<Integer> indices = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      int index = wholeNumber(0).parse(items.get(i), node instanceof YamlNode.Sequence ? field.index(i) : field);
      if (!indices.contains(index)) {
        indices.add(index);
      }
    }
    return List.copyOf(indices);
  };

  /** A placement policy's name. */
  static final ValueParser<String> PLACEMENT = (node, field) -> {
    String text = TEXT.parse(node, field).strip();
    try {
      PlacementPolicies.byName(text);
    } catch (IllegalArgumentException e) {
      throw field.problem(e.getMessage());
    }
    return text;
  };

  /** One text value or a list of them. */
  static final ValueParser<List<String>> TEXT_LIST = (node, field) -> {
    if (node instanceof YamlNode.Sequence seq) {
      List<String> out = new ArrayList<>();
      for (int i = 0; i < seq.items().size(); i++) {
        out.add(TEXT.parse(seq.items().get(i), field.index(i)));
      }
      return List.copyOf(out);
    }
    return List.of(TEXT.parse(node, field));
  };

  /** true or false. */
  static final ValueParser<Boolean> BOOLEAN = (node, field) -> {
    if (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Kind.BOOLEAN) {
      return Boolean.parseBoolean(s.text().toLowerCase(Locale.ROOT));
    }
    throw field.problem("must be true or false but was " + node.describe());
  };

  /** A duration longer than zero. */
  static final ValueParser<Duration> POSITIVE_DURATION = (node, field) -> {
    Duration d = DURATION.parse(node, field);
    if (d.isZero()) {
      throw field.problem("must be longer than 0; leave it out for no limit");
    }
    return d;
  };

  /** A retry backoff factor: a number of at least 1. */
  static final ValueParser<Double> BACKOFF = (node, field) -> {
    Optional<BigDecimal> n = number(node);
    if (n.isEmpty() || n.get().compareTo(BigDecimal.ONE) < 0 || n.get().doubleValue() > 1000) {
      throw field.problem("must be a number from 1 (constant delay) to 1000 but was " + node.describe());
    }
    return n.get().doubleValue();
  };

  /** A whole number of at least {@code min}. */
  static ValueParser<Integer> wholeNumber(int min) {
    String rule = min == Integer.MIN_VALUE ? "must be a whole number" : "must be a whole number >= " + min;
    return (node, field) -> {
      Optional<BigDecimal> n = number(node);
      if (n.isEmpty() || n.get().stripTrailingZeros().scale() > 0) {
        throw field.problem(rule + " but was " + node.describe());
      }
      BigDecimal v = n.get();
      if (v.compareTo(BigDecimal.valueOf(min)) < 0 || v.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
        throw field.problem(rule + " but was " + node.describe());
      }
      return v.intValueExact();
    };
  }

  /**
   * The numeric value of a YAML number, or of text that is plainly a number such as {@code "2"}
   * (people quote numbers; refusing them would be pedantic).
   */
  static Optional<BigDecimal> number(YamlNode node) {
    if (!(node instanceof YamlNode.Scalar s)) {
      return Optional.empty();
    }
    if (s.kind() == YamlNode.Kind.INTEGER || s.kind() == YamlNode.Kind.DECIMAL) {
      return Optional.ofNullable(s.number());
    }
    if (s.kind() == YamlNode.Kind.STRING && DECIMAL_TEXT.matcher(s.text().strip()).matches()) {
      return Optional.of(new BigDecimal(s.text().strip()));
    }
    return Optional.empty();
  }
}
