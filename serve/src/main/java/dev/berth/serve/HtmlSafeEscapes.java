package dev.berth.serve;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;

/**
 * Writes {@code < > & '} in JSON strings as {@code \\u003c}-style escapes, so a task's id or output
 * stays inert even where a browser might read the JSON as HTML.
 */
final class HtmlSafeEscapes extends CharacterEscapes {

  private final int[] escapes;

  HtmlSafeEscapes() {
    escapes = standardAsciiEscapesForJSON();
    for (char c : new char[] {'<', '>', '&', '\''}) {
      escapes[c] = ESCAPE_STANDARD;
    }
  }

  @Override
  public int[] getEscapeCodesForAscii() {
    return escapes;
  }

  @Override
  public SerializableString getEscapeSequence(int ch) {
    return null;
  }
}
