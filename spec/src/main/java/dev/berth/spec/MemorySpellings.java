package dev.berth.spec;

import dev.berth.core.units.ByteSize;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory sizes spelled in a way that is almost always a mistake. A bare number counts bytes (fedflow's
 * rule, which its configs use), but nobody reserves 10 bytes on purpose: a task's, group's or pool's
 * {@code memory} or {@code gpu-memory} that is a bare number from 1 to 1 MiB less one byte is refused
 * with the unit that was likely meant. Sizes in bits ({@code 2Gb}, {@code 512Mib}) are accepted, as
 * fedflow accepts them, but {@code 2Gb} reserves only 238 MiB: each becomes a warning naming the field
 * and the byte spelling.
 */
final class MemorySpellings {

  private static final Pattern BITS = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kKMGTP])(i?)b\\s*");

  private MemorySpellings() {}

  /**
   * One warning for each memory key (memory, gpu-memory, default-memory, ...) whose value is in bits.
   *
   * @throws SpecException naming the field when a task's, group's or pool's memory is a bare number of
   *     bytes below 1 MiB other than 0
   */
  static List<String> warnings(YamlNode document, Field root) throws SpecException {
    List<String> warnings = new ArrayList<>();
    scan(document, root, "", false, warnings);
    return List.copyOf(warnings);
  }

  private static void scan(YamlNode node, Field field, String key, boolean config, List<String> warnings)
      throws SpecException {
    if (node instanceof YamlNode.Mapping map) {
      for (var e : map.entries().entrySet()) {
        scan(e.getValue(), field.key(e.getKey()), e.getKey(), config || field.path().isEmpty() && e.getKey().equals("config"),
            warnings);
      }
    } else if (node instanceof YamlNode.Sequence list) {
      for (int i = 0; i < list.items().size(); i++) {
        scan(list.items().get(i), field.index(i), key, config, warnings);
      }
    } else if (node instanceof YamlNode.Scalar s && (key.equals("memory") || key.endsWith("-memory"))) {
      if (!config && (key.equals("memory") || key.equals("gpu-memory"))) {
        Optional<String> slip = ByteSize.bareSlip(s.text(), "reserve");
        if (slip.isPresent()) {
          throw field.problem(slip.get());
        }
      }
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
