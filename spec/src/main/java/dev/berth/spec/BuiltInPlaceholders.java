package dev.berth.spec;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * Placeholders every task may use besides its matrix variables. {@code {spec_dir}} is the spec
 * file's folder, absolute because each task runs in its own folder under the workdir, so that a
 * spec can name scripts that sit next to it.
 */
final class BuiltInPlaceholders {

  /** The folder of the spec file. */
  static final String SPEC_DIR = "spec_dir";

  /** Names a matrix may not use. */
  static final Set<String> NAMES = Set.of(SPEC_DIR);

  private BuiltInPlaceholders() {}

  /** The values for a spec read from {@code specFile}. */
  static Map<String, String> forSpec(Path specFile) {
    Path folder = specFile.toAbsolutePath().normalize().getParent();
    return Map.of(SPEC_DIR, folder == null ? "/" : folder.toString());
  }
}
