package dev.berth.host;

import dev.berth.host.Rows.HoldRow;
import dev.berth.host.Rows.RunRow;
import dev.berth.host.Rows.WaitRow;
import dev.berth.host.RowSet.Part;
import dev.berth.host.RowSet.Usage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One user's rows of the host ledger as text, one row a line and its fields separated by tabs. The
 * file says nothing of whose it is: the owner the file system gives it says that, so that nothing a
 * user writes can pass for another user's. Its first line carries a token made with the file, kept as
 * the file is written again, so that a run can tell the file it wrote from one made anew after it
 * was removed.
 */
record UserFile(String made, String user, Part rows) {

  /** The first word of the first line: what the file is, and the version of its lines. */
  static final String HEADER = "berth-host-ledger 1";
  /** The last line: a file without it was not written to its end. */
  static final String END = "end";

  /** The text of the file. */
  String text() {
    StringBuilder out = new StringBuilder(HEADER).append(' ').append(made).append(' ').append(escape(user)).append('\n');
    for (RunRow r : rows.runs()) {
      line(out, "run", r.id(), r.host(), r.name(), r.workdir(), r.pid(), r.pidStart(), r.state(), r.running(),
          r.waiting(), r.done(), r.total(), millis(r.startedAt()), millis(r.updatedAt()),
          r.endedAt() == null ? "-" : millis(r.endedAt()), r.tasksSince());
    }
    for (HoldRow h : rows.holds()) {
      line(out, "hold", h.run(), h.task(), h.key(), h.label(), h.bytes(), h.measured(), h.milliCpus(),
          millis(h.since()));
    }
    for (WaitRow w : rows.waits()) {
      line(out, "wait", w.run(), w.task(), w.priority(), millis(w.since()), w.milliCpus(), w.hostMemory(),
          w.gpuMemory(), w.gpus(), ShareText.encode(w.devices()));
    }
    for (Usage u : rows.usage()) {
      line(out, "usage", millis(u.at()), u.amount());
    }
    return out.append(END).append('\n').toString();
  }

  /**
   * The rows in {@code text}, as the rows of the user {@code uid} named {@code user}, whatever the
   * text says; named as the file says when {@code user} is null.
   *
   * @throws IllegalArgumentException naming the line when the text is not such a file
   */
  static UserFile parse(String text, long uid, String owner) {
    String[] lines = text.split("\n", -1);
    String[] header = lines[0].split(" ", -1);
    if (!lines[0].startsWith(HEADER + " ") || header.length != 4) {
      throw new IllegalArgumentException("line 1: not a Berth host ledger file of this release");
    }
    String user = owner != null ? owner : unescape(header[3]);
    List<RunRow> runs = new ArrayList<>();
    List<HoldRow> holds = new ArrayList<>();
    List<WaitRow> waits = new ArrayList<>();
    List<Usage> usage = new ArrayList<>();
    int end = lines.length - 1;
    while (end > 0 && lines[end].isEmpty()) {
      end--;
    }
    if (!lines[end].equals(END) || !text.endsWith(END + "\n")) {
      throw new IllegalArgumentException("line " + (end + 1) + ": the file ends before its last line");
    }
    for (int n = 1; n < end; n++) {
      if (lines[n].isEmpty()) {
        continue;
      }
      String[] f = lines[n].split("\t", -1);
      for (int i = 0; i < f.length; i++) {
        f[i] = unescape(f[i]);
      }
      try {
        switch (f[0]) {
          case "run" -> runs.add(new RunRow(f[1], f[2], f[3], f[4], uid, user, num(f[5]), num(f[6]), f[7],
              (int) num(f[8]), (int) num(f[9]), (int) num(f[10]), (int) num(f[11]), at(f[12]), at(f[13]),
              f[14].equals("-") ? null : at(f[14]), num(f[15])));
          case "hold" -> holds.add(new HoldRow(f[1], f[2], f[3], f[4], num(f[5]), num(f[6]), num(f[7]), at(f[8])));
          case "wait" -> waits.add(new WaitRow(f[1], f[2], (int) num(f[3]), at(f[4]), num(f[5]), num(f[6]),
              num(f[7]), (int) num(f[8]), ShareText.decode(f[9])));
          case "usage" -> usage.add(new Usage(user, at(f[1]), Double.parseDouble(f[2])));
          default -> throw new IllegalArgumentException("not a row");
        }
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("line " + (n + 1) + ": " + f[0] + ": " + e.getMessage());
      }
    }
    return new UserFile(header[2], user, new Part(runs, holds, waits, usage));
  }

  private static void line(StringBuilder out, String kind, Object... fields) {
    out.append(kind);
    for (Object f : fields) {
      out.append('\t').append(escape(String.valueOf(f)));
    }
    out.append('\n');
  }

  // A field may hold any text (a workdir, a task's name): what would end it or its line is escaped.
  private static String escape(String s) {
    return s.replace("%", "%25").replace("\t", "%09").replace("\n", "%0A").replace("\r", "%0D").replace(" ", "%20");
  }

  private static String unescape(String s) {
    return s.indexOf('%') < 0 ? s : s.replace("%09", "\t").replace("%0A", "\n").replace("%0D", "\r")
        .replace("%20", " ").replace("%25", "%");
  }

  private static long millis(Instant at) {
    return at.toEpochMilli();
  }

  private static long num(String s) {
    return Long.parseLong(s);
  }

  private static Instant at(String s) {
    return Instant.ofEpochMilli(Long.parseLong(s));
  }
}
