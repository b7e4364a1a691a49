package dev.berth.session;

import dev.berth.core.report.RunReport;
import dev.berth.report.WrittenReports;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How a session's run ended.
 *
 * @param report what happened
 * @param reportJson where the engine wrote {@code report.json}
 * @param reports the HTML, Markdown and CSV reports beside it, once written (not when the session's
 *     options turned them off)
 */
public record RunEnd(RunReport report, Path reportJson, Optional<WrittenReports> reports) {}
