package dev.berth.core.settings;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The placeholder rule of specs and of the Java API (pure text, no I/O): {@code {lr}} is replaced by the value of
 * {@code lr}, {@code {{lr}}} stays as the literal text {@code {lr}}, and any other brace is kept as
 * written, so {@code awk '{print $1}'} needs no escaping. Optionally, {@code {}} stands for one bare
 * value (the Java API's {@code map} input). Callers say what a missing value means to them: look for
 * it with {@link #missing} first.
 */
public final class PlaceholderText {

  /** What a placeholder may be called: the rule for matrix variables. */
  public static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_-]*");

  private PlaceholderText() {}

  /** The placeholder names {@code text} uses, in order. */
  public static Set<String> names(String text) {
    Set<String> names = new LinkedHashSet<>();
    Scan scan = new Scan(text, false);
    while (scan.next()) {
      if (scan.kind == Kind.NAME) {
        names.add(scan.name());
      }
    }
    return names;
  }

  /** The first placeholder of {@code text} that {@code values} holds no value for, if any. */
  public static Optional<String> missing(String text, Map<String, String> values) {
    Scan scan = new Scan(text, false);
    while (scan.next()) {
      if (scan.kind == Kind.NAME && !values.containsKey(scan.name())) {
        return Optional.of(scan.name());
      }
    }
    return Optional.empty();
  }

  /**
   * {@code text} with every placeholder replaced.
   *
   * @param bare the value of {@code {}}, or null when {@code {}} is kept as written
   * @throws IllegalArgumentException when a placeholder has no value; check with {@link #missing} first
   */
  public static String fill(String text, Map<String, String> values, String bare) {
    Scan scan = new Scan(text, bare != null);
    StringBuilder out = new StringBuilder(text.length() + 16);
    int copied = 0;
    while (scan.next()) {
      out.append(text, copied, scan.start);
      switch (scan.kind) {
        case KEPT -> out.append('{').append(scan.name()).append('}');
        case NAME -> {
          String value = values.get(scan.name());
          if (value == null) {
            throw new IllegalArgumentException("placeholder '{" + scan.name() + "}' has no value");
          }
          out.append(value);
        }
        case BARE -> out.append(bare);
      }
      copied = scan.end;
    }
    return out.append(text, copied, text.length()).toString();
  }

  private enum Kind { KEPT, NAME, BARE }

  /**
   * Finds the placeholders of a text from left to right, as the {@link #VARIABLE} rule reads them:
   * at each brace {@code {{name}}} first, then {@code {name}}, then (when allowed) {@code {}}; a
   * brace that starts none of them is text. Written out rather than as a regular expression: a
   * sweep fills every task's id and arguments with it.
   */
  private static final class Scan {
    private final String text;
    private final boolean bare;
    private int from;
    Kind kind;
    int start;
    int end;
    private int nameStart;
    private int nameEnd;

    Scan(String text, boolean bare) {
      this.text = text;
      this.bare = bare;
    }

    /** Moves to the next placeholder; false when there is none. */
    boolean next() {
      for (int i = text.indexOf('{', from); i >= 0; i = text.indexOf('{', i + 1)) {
        if (found(i)) {
          from = end;
          return true;
        }
      }
      from = text.length();
      return false;
    }

    String name() {
      return text.substring(nameStart, nameEnd);
    }

    private boolean found(int at) {
      start = at;
      if (charAt(at + 1) == '{') {
        int n = afterName(at + 2);
        if (n > at + 2 && charAt(n) == '}' && charAt(n + 1) == '}') {
          return found(Kind.KEPT, at + 2, n, n + 2);
        }
      }
      int n = afterName(at + 1);
      if (n > at + 1 && charAt(n) == '}') {
        return found(Kind.NAME, at + 1, n, n + 1);
      }
      return bare && charAt(at + 1) == '}' && found(Kind.BARE, at + 1, at + 1, at + 2);
    }

    private boolean found(Kind kind, int nameStart, int nameEnd, int end) {
      this.kind = kind;
      this.nameStart = nameStart;
      this.nameEnd = nameEnd;
      this.end = end;
      return true;
    }

    /** The end of the name that starts at {@code i}, or {@code i} when none does. */
    private int afterName(int i) {
      char c = charAt(i);
      if (!(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_')) {
        return i;
      }
      int j = i + 1;
      for (c = charAt(j); c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-';
          c = charAt(++j)) {
        // the name goes on
      }
      return j;
    }

    private char charAt(int i) {
      return i < text.length() ? text.charAt(i) : '\0';
    }
  }
}
