package dev.berth.protocol;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The small JSON reader and writer of the control channel's messages, so that the task worker needs
 * no library. The writer accepts whatever a task returns: maps, iterables and arrays become objects
 * and arrays, non-finite numbers become the strings {@code "NaN"}, {@code "Infinity"} and
 * {@code "-Infinity"} (JSON has no such numbers), and any other object becomes its
 * {@code toString()}. The reader gives {@code LinkedHashMap}, {@code ArrayList}, {@code String},
 * {@code Boolean}, {@code Integer}, {@code Long} or {@code BigInteger} (the smallest that holds a
 * whole number), {@code Double} and null, and also takes the bare tokens {@code NaN},
 * {@code Infinity} and {@code -Infinity}.
 */
public final class MessageJson {

  private static final Pattern NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
  private static final int MAX_DEPTH = 1000;
  private static final int MAX_NUMBER_LENGTH = 1000;

  private MessageJson() {}

  /** The JSON text of a value, on one line. */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, new IdentityHashMap<>());
    return out.toString();
  }

  private static void write(Object value, StringBuilder out, IdentityHashMap<Object, Boolean> open) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof Boolean b) {
      out.append(b.booleanValue());
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        string(Double.toString(d), out);
      } else {
        out.append(value);
      }
    } else if (value instanceof Number n) {
      String text = n instanceof BigDecimal bd ? bd.toString() : n.toString();
      if (NUMBER.matcher(text).matches()) {
        out.append(text);
      } else {
        string(text, out);
      }
    } else if (value instanceof Map<?, ?> map) {
      enter(value, open);
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(String.valueOf(e.getKey()), out);
        out.append(':');
        write(e.getValue(), out, open);
      }
      out.append('}');
      open.remove(value);
    } else if (value instanceof Iterable<?> items) {
      enter(value, open);
      out.append('[');
      boolean first = true;
      for (Object item : items) {
        if (!first) {
          out.append(',');
        }
        first = false;
        write(item, out, open);
      }
      out.append(']');
      open.remove(value);
    } else if (value.getClass().isArray()) {
      enter(value, open);
      out.append('[');
      for (int i = 0, n = Array.getLength(value); i < n; i++) {
        if (i > 0) {
          out.append(',');
        }
        write(Array.get(value, i), out, open);
      }
      out.append(']');
      open.remove(value);
    } else {
      string(value.toString(), out);
    }
  }

  private static void enter(Object container, IdentityHashMap<Object, Boolean> open) {
    if (open.put(container, Boolean.TRUE) != null) {
      throw new IllegalArgumentException("a value contains itself, which JSON cannot express");
    }
  }

  private static void string(String s, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /**
   * Reads one JSON value that makes up the whole text.
   *
   * @throws IllegalArgumentException naming the position of the first error
   */
  public static Object parse(String text) {
    Reader reader = new Reader(text);
    reader.space();
    Object value = reader.value();
    reader.space();
    if (reader.pos < text.length()) {
      throw reader.error("unexpected text after the value");
    }
    return value;
  }

  private static final class Reader {
    private final String text;
    private int pos;
    private int depth;

    Reader(String text) {
      this.text = text;
    }

    Object value() {
      if (pos >= text.length()) {
        throw error("a value is missing");
      }
      char c = text.charAt(pos);
      return switch (c) {
        case '{' -> object();
        case '[' -> array();
        case '"' -> string();
        case 't' -> literal("true", Boolean.TRUE);
        case 'f' -> literal("false", Boolean.FALSE);
        case 'n' -> literal("null", null);
        case 'N' -> literal("NaN", Double.NaN);
        case 'I' -> literal("Infinity", Double.POSITIVE_INFINITY);
        default -> {
          if (text.startsWith("-Infinity", pos)) {
            yield literal("-Infinity", Double.NEGATIVE_INFINITY);
          }
          if (c == '-' || (c >= '0' && c <= '9')) {
            yield number();
          }
          throw error("unexpected character '" + c + "'");
        }
      };
    }

    private Map<String, Object> object() {
      Map<String, Object> map = new LinkedHashMap<>();
      enter();
      space();
      if (peek() == '}') {
        pos++;
        depth--;
        return map;
      }
      while (true) {
        space();
        if (peek() != '"') {
          throw error("a key must be a string");
        }
        String key = string();
        space();
        expect(':');
        space();
        map.put(key, value());
        space();
        char c = next();
        if (c == '}') {
          depth--;
          return map;
        }
        if (c != ',') {
          throw error("expected ',' or '}'");
        }
      }
    }

    private List<Object> array() {
      List<Object> list = new ArrayList<>();
      enter();
      space();
      if (peek() == ']') {
        pos++;
        depth--;
        return list;
      }
      while (true) {
        space();
        list.add(value());
        space();
        char c = next();
        if (c == ']') {
          depth--;
          return list;
        }
        if (c != ',') {
          throw error("expected ',' or ']'");
        }
      }
    }

    /** Steps past the opening bracket, one level deeper. */
    private void enter() {
      if (++depth > MAX_DEPTH) {
        throw error("nested deeper than " + MAX_DEPTH + " levels");
      }
      pos++;
    }

    private String string() {
      StringBuilder out = new StringBuilder();
      pos++;
      while (true) {
        char c = next();
        if (c == '"') {
          return out.toString();
        }
        if (c < 0x20) {
          throw error("a control character inside a string");
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            if (pos + 4 > text.length()) {
              throw error("a \\u escape needs four hex digits");
            }
            try {
              out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
            } catch (NumberFormatException x) {
              throw error("a \\u escape needs four hex digits");
            }
            pos += 4;
          }
          default -> throw error("unknown escape '\\" + e + "'");
        }
      }
    }

    private Object number() {
      int start = pos;
      if (peek() == '-') {
        pos++;
      }
      while (pos < text.length() && "0123456789.eE+-".indexOf(text.charAt(pos)) >= 0) {
        pos++;
      }
      String s = text.substring(start, pos);
      if (s.length() > MAX_NUMBER_LENGTH || !NUMBER.matcher(s).matches()) {
        pos = start;
        throw error(s.length() > MAX_NUMBER_LENGTH ? "a number longer than " + MAX_NUMBER_LENGTH + " characters"
            : "malformed number '" + s + "'");
      }
      if (s.indexOf('.') >= 0 || s.indexOf('e') >= 0 || s.indexOf('E') >= 0) {
        return Double.parseDouble(s);
      }
      BigInteger big = new BigInteger(s);
      if (big.bitLength() < 32) {
        return big.intValue();
      }
      return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    private Object literal(String word, Object value) {
      if (!text.startsWith(word, pos)) {
        throw error("unexpected text");
      }
      pos += word.length();
      return value;
    }

    private void expect(char c) {
      if (next() != c) {
        pos--;
        throw error("expected '" + c + "'");
      }
    }

    private char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
      if (pos >= text.length()) {
        throw error("the text ends too early");
      }
      return text.charAt(pos++);
    }

    void space() {
      while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
        pos++;
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("malformed JSON at character " + pos + ": " + what);
    }
  }
}
