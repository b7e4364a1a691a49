package dev.berth.serve;

import dev.berth.report.RunCharts;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's pages, scripts and styles: resources inside the jar, so it works offline, and the
 * charts' style sheet, which is the one {@code report.html} inlines.
 */
final class Assets {

  /** The files served under {@code /assets/}, by name, with their types; nothing else is. */
  private static final Map<String, String> TYPES = Map.of(
      "dashboard.js", "text/javascript; charset=utf-8",
      "charts.css", "text/css; charset=utf-8",
      "dashboard.css", "text/css; charset=utf-8",
      "index.html", "text/html; charset=utf-8");

  private Assets() {}

  /** The file's type, for names that are assets. */
  static Optional<String> type(String name) {
    return Optional.ofNullable(TYPES.get(name));
  }

  /** The file's bytes. */
  static byte[] read(String name) {
    if (name.equals("charts.css")) {
      return RunCharts.CSS.getBytes(StandardCharsets.UTF_8);
    }
    try (InputStream in = Assets.class.getResourceAsStream("assets/" + name)) {
      if (in == null) {
        throw new IllegalStateException("asset " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
