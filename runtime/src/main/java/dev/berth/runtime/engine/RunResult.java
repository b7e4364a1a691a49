package dev.berth.runtime.engine;

import dev.berth.core.report.RunReport;
import java.nio.file.Path;

/**
 * The end of a run.
 *
 * @param report what happened
 * @param reportFile where the JSON report was written
 */
public record RunResult(RunReport report, Path reportFile) {}
