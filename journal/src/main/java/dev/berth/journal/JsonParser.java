package dev.berth.journal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses JSON text (RFC 8259, strictly) into a {@link Json} tree. */
final class JsonParser {

  private static final int MAX_DEPTH = 512;

  private final String text;
  private int pos;
  private int depth;

  private JsonParser(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON value.
   *
   * @throws IllegalArgumentException naming the position when the text is not JSON
   */
  static Json parse(String text) {
    JsonParser p = new JsonParser(text);
    p.space();
    Json value = p.value();
    p.space();
    if (p.pos < text.length()) {
      throw p.error("unexpected text after the value");
    }
    return value;
  }

  private Json value() {
    if (pos >= text.length()) {
      throw error("unexpected end of text");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return new Json.Str(string());
      case 't':
        literal("true");
        return Json.of(true);
      case 'f':
        literal("false");
        return Json.of(false);
      case 'n':
        literal("null");
        return Json.NULL;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private Json object() {
    Map<String, Json> fields = new LinkedHashMap<>();
    members('}', () -> {
      if (!peek('"')) {
        throw error("expected a string key");
      }
      int at = pos;
      String key = string();
      space();
      expect(':');
      space();
      if (fields.put(key, value()) != null) {
        pos = at;
        throw error("duplicate key \"" + key + "\"");
      }
    });
    return new Json.Obj(fields);
  }

  private Json array() {
    List<Json> items = new ArrayList<>();
    members(']', () -> items.add(value()));
    return new Json.Arr(items);
  }

  /** Reads from the opening bracket to {@code close}: comma-separated members, each read by {@code member}. */
  private void members(char close, Runnable member) {
    enter();
    pos++;
    space();
    if (peek(close)) {
      pos++;
    } else {
      do {
        space();
        member.run();
        space();
      } while (skip(','));
      expect(close);
    }
    depth--;
  }

  private String string() {
    pos++;
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c < 0x20) {
        pos--;
        throw error("control character in a string");
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> out.append(e);
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> out.append(hex4());
        default -> {
          pos--;
          throw error("bad escape \\" + e);
        }
      }
    }
  }

  private char hex4() {
    if (pos + 4 > text.length()) {
      throw error("bad \\u escape");
    }
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = Character.digit(text.charAt(pos + i), 16);
      if (d < 0) {
        throw error("bad \\u escape");
      }
      v = v * 16 + d;
    }
    pos += 4;
    return (char) v;
  }

  private Json number() {
    int start = pos;
    skip('-');
    if (!skip('0') && !digits()) {
      throw error("bad number");
    }
    if (skip('.') && !digits()) {
      throw error("bad number: digits expected after '.'");
    }
    if (skip('e') || skip('E')) {
      if (!skip('+')) {
        skip('-');
      }
      if (!digits()) {
        throw error("bad number: digits expected in the exponent");
      }
    }
    return new Json.Num(text.substring(start, pos));
  }

  private boolean digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
      pos++;
    }
    return pos > start;
  }

  private void literal(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("unexpected text");
    }
    pos += word.length();
  }

  private void enter() {
    if (++depth > MAX_DEPTH) {
      throw error("nested deeper than " + MAX_DEPTH + " levels");
    }
  }

  private void space() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      pos++;
    }
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  /** Moves past {@code c} if it is next. */
  private boolean skip(char c) {
    if (!peek(c)) {
      return false;
    }
    pos++;
    return true;
  }

  private void expect(char c) {
    if (!skip(c)) {
      throw error(pos >= text.length() ? "unexpected end of text, expected '" + c + "'" : "expected '" + c + "'");
    }
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException("not JSON: " + problem + " at character " + (pos + 1));
  }
}
