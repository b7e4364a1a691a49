package dev.berth.report;

import java.nio.charset.StandardCharsets;

/** Escaping for every output format; everything a task, a spec or a result supplies passes through here. */
final class Escape {

  private Escape() {}

  /** Text safe in HTML (and XML) content and in quoted attribute values. */
  static String html(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> {
          // Control characters other than tab and newlines are not allowed in XML, which keeps the page parseable.
          if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            b.append('\uFFFD');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /**
   * Text safe in a Markdown table cell: backslash escapes for the characters that would end the cell or
   * start markup (so pasted text never turns into HTML), and {@code <br>} for line breaks.
   */
  static String markdown(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    String text = s.replace("\r\n", "\n").replace('\r', '\n');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\', '|', '<', '>', '*', '`', '[', ']' -> b.append('\\').append(c);
        case '\n' -> b.append("<br>");
        default -> {
          if (!control(c)) { // a raw NUL or ESC would reach the terminal or editor that shows the file
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }

  /**
   * One RFC 4180 field that a spreadsheet opens as text: control characters other than tab and line breaks
   * removed; a cell a spreadsheet would read as a formula (starting with {@code = + - @}, a tab or a carriage
   * return, and not a plain number such as {@code -0.5}) prefixed with {@code '}; quoted when it holds a
   * comma, a quote or a line break, quotes doubled.
   */
  static String csv(String value) {
    if (value == null) {
      return "";
    }
    if (plainCsv(value)) {
      return value;
    }
    String s = spreadsheetSafe(value);
    if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
      return s;
    }
    return '"' + s.replace("\"", "\"\"") + '"';
  }

  /**
   * Whether the cell is written as it is: no control character, comma or quote, and no first
   * character a spreadsheet reads as a formula. One look at each character, as a large run's CSV
   * has hundreds of thousands of cells.
   */
  private static boolean plainCsv(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f || c == ',' || c == '"') {
        return false;
      }
    }
    return value.isEmpty() || "=+-@".indexOf(value.charAt(0)) < 0;
  }

  /** The text without control characters; the text itself when it has none, as nearly every cell. */
  private static String withoutControls(String value) {
    int first = 0;
    while (first < value.length() && !control(value.charAt(first))) {
      first++;
    }
    if (first == value.length()) {
      return value;
    }
    StringBuilder b = new StringBuilder(value.length()).append(value, 0, first);
    for (int i = first + 1; i < value.length(); i++) {
      if (!control(value.charAt(i))) {
        b.append(value.charAt(i));
      }
    }
    return b.toString();
  }

  private static boolean control(char c) {
    return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f;
  }

  private static String spreadsheetSafe(String value) {
    String s = withoutControls(value);
    if (s.isEmpty() || "=+-@\t\r".indexOf(s.charAt(0)) < 0 || Values.number(s) != null && s.strip().equals(s)) {
      return s;
    }
    return "'" + s;
  }

  /** One path segment of a relative URL, percent-encoded except for RFC 3986 unreserved characters. */
  static String urlSegment(String s) {
    if (s.equals(".") || s.equals("..")) {
      // Dot segments would climb folders instead of naming one.
      return s.replace(".", "%2E");
    }
    StringBuilder b = new StringBuilder();
    for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
      int c = x & 0xff;
      if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
        b.append((char) c);
      } else {
        b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return b.toString();
  }

  /** Text for a Slack-compatible {@code text} field, where only these three characters are markup. */
  static String slack(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
