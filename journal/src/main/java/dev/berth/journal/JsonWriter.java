package dev.berth.journal;

import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the canonical text of a {@link Json} value: no whitespace, object keys sorted by their
 * UTF-16 code units, strings escaped minimally. Equal trees always give equal text, which is what
 * the spec's SHA-256 is taken over.
 */
final class JsonWriter {

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private JsonWriter() {}

  /** The canonical text of {@code value}. */
  static String write(Json value) {
    StringBuilder out = new StringBuilder();
    write(value, out);
    return out.toString();
  }

  private static void write(Json value, StringBuilder out) {
    if (value instanceof Json.Obj obj) {
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Json> e : new TreeMap<>(obj.fields()).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        string(e.getKey(), out);
        out.append(':');
        write(e.getValue(), out);
      }
      out.append('}');
    } else if (value instanceof Json.Arr arr) {
      out.append('[');
      for (int i = 0; i < arr.items().size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(arr.items().get(i), out);
      }
      out.append(']');
    } else if (value instanceof Json.Str s) {
      string(s.value(), out);
    } else {
      out.append(value);
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
          // Surrogates are escaped so that a lone one survives the trip through UTF-8 storage.
          if (c < 0x20 || Character.isSurrogate(c)) {
            out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                .append(HEX[c & 15]);
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
