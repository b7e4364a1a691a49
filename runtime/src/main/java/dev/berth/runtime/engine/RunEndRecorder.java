package dev.berth.runtime.engine;

import dev.berth.core.report.DeviceReport;
import dev.berth.core.report.Revision;
import dev.berth.core.report.RunReport;
import dev.berth.core.report.RunStatus;
import dev.berth.core.scheduling.RunState;
import dev.berth.runtime.report.FailureTails;
import dev.berth.report.ReportJson;
import dev.berth.spi.JournalException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/** Records the end of a run: its report, its end journalled (unless it is to resume) and report.json written. */
final class RunEndRecorder {

  private RunEndRecorder() {}

  /**
   * Builds the run's report, journals how the run ended unless it was interrupted (an interrupted run
   * stays unfinished: it resumes), and writes report.json; what the report shows was made durable first.
   *
   * @param stoppedAs how the run was stopped, or null when its tasks ended it
   * @param revisions the changes of the run's spec it went on with, from its journal
   */
  static RunReport record(RunState state, RunLayout layout, Instant startedAt, Instant now, RunStatus stoppedAs,
      List<DeviceReport> devices, List<Revision> revisions, EventRecorder recorder) {
    RunReport report = FailureTails.added(RunReport.of(
        state, startedAt, now, stoppedAs, spec -> layout.taskDir(spec).toString())).withDevices(devices)
        .withRevisions(revisions);
    try {
      if (stoppedAs != RunStatus.INTERRUPTED) {
        recorder.finish(report.status(), report.finishedAt());
      }
      ReportJson.write(report, layout.reportJson());
    } catch (JournalException e) {
      throw new IllegalStateException("the journal cannot be written: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + layout.reportJson(), e);
    }
    recorder.commit();
    return report;
  }
}
