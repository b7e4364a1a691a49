package dev.berth.host;

import dev.berth.spi.SharedReservations.Share;
import java.util.ArrayList;
import java.util.List;

/** A waiting task's devices as one text column: one device a line, key, label and limit separated by tabs. */
final class ShareText {

  private ShareText() {}

  static String encode(List<Share> shares) {
    StringBuilder text = new StringBuilder();
    for (Share s : shares) {
      text.append(clean(s.key())).append('\t').append(clean(s.label())).append('\t').append(s.limitBytes()).append('\n');
    }
    return text.toString();
  }

  static List<Share> decode(String text) {
    List<Share> shares = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = line.split("\t");
      if (f.length == 3) {
        shares.add(new Share(f[0], f[1], 0, Long.parseLong(f[2])));
      }
    }
    return shares;
  }

  private static String clean(String s) {
    return s.replace('\t', ' ').replace('\n', ' ');
  }
}
