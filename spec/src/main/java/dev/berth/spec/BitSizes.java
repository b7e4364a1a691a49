package dev.berth.spec;

import dev.berth.core.units.ByteSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds memory sizes written in bits ({@code 2Gb}, {@code 512Mib}): Berth accepts them, as fedflow
 * does, but one almost always meant bytes, and {@code 2Gb} reserves only 238 MiB. Each becomes a
 * warning naming the field and the byte spelling.
 */
final class BitSizes {

  private static final Pattern BITS = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kKMGTP])(i?)b\\s*");

  private BitSizes() {}

  /** One warning for each memory key (memory, gpu-memory, default-memory, ...) whose value is in bits. */
  static List<String> warnings(YamlNode document, Field root) {
    List<String> warnings = new ArrayList<>();
    scan(document, root, "", warnings);
    return List.copyOf(warnings);
  }

  private static void scan(YamlNode node, Field field, String key, List<String> warnings) {
    if (node instanceof YamlNode.Mapping map) {
      map.entries().forEach((k, v) -> scan(v, field.key(k), k, warnings));
    } else if (node instanceof YamlNode.Sequence list) {
      for (int i = 0; i < list.items().size(); i++) {
        scan(list.items().get(i), field.index(i), key, warnings);
      }
    } else if (node instanceof YamlNode.Scalar s && (key.equals("memory") || key.endsWith("-memory"))) {
      Matcher m = BITS.matcher(s.text());
      if (m.matches()) {
        String prefix = m.group(2).toUpperCase(Locale.ROOT);
        String bytes = m.group(1) + prefix + m.group(3) + "B";
        String spelling = m.group(3).isEmpty() ? bytes + " or " + m.group(1) + prefix + "iB" : bytes;
        warnings.add(field.problem("'" + s.text().strip() + "' is in bits, " + ByteSize.format(ByteSize.parse(s.text()))
            + "; write " + spelling + " for bytes").getMessage());
      }
    }
  }
}
