package dev.berth.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import java.io.IOException;

/**
 * Jackson's indented layout, byte for byte, written as ready UTF-8: each line break with its
 * indentation, and the {@code " : "} after each field name, is one copy of bytes made once, where
 * the default printer converts the same characters anew for every line. report.json of a run of
 * 100,000 tasks has millions of such lines.
 */
final class ReportIndents extends DefaultPrettyPrinter {

  private static final long serialVersionUID = 1L;
  private static final SerializedString NAME_VALUE = new SerializedString(" : ");

  ReportIndents() {
    indentObjectsWith(new Lines());
  }

  @Override
  public DefaultPrettyPrinter createInstance() {
    return new ReportIndents();
  }

  @Override
  public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
    g.writeRaw(NAME_VALUE);
  }

  /** A line break and two spaces per level, as {@link DefaultIndenter#SYSTEM_LINEFEED_INSTANCE} writes them. */
  private static final class Lines implements Indenter {

    private static final int KEPT = 32;
    private static final String EOL = DefaultIndenter.SYS_LF;

    private final SerializedString[] byLevel = new SerializedString[KEPT];

    @Override
    public void writeIndentation(JsonGenerator g, int level) throws IOException {
      if (level >= KEPT) {
        g.writeRaw(EOL + "  ".repeat(level));
        return;
      }
      SerializedString line = byLevel[level];
      if (line == null) {
        line = new SerializedString(EOL + "  ".repeat(level));
        byLevel[level] = line;
      }
      g.writeRaw(line);
    }

    @Override
    public boolean isInline() {
      return false;
    }
  }
}
