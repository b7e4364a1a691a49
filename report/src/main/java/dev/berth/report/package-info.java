/**
 * Renderings of a run's report for people (HTML, Markdown, CSV) and the notifications that carry them.
 *
 * <p>Renderers are pure functions of a {@link dev.berth.core.report.RunReport} and options:
 * {@link dev.berth.report.HtmlReport}, {@link dev.berth.report.MarkdownReport}, {@link dev.berth.report.CsvResults}
 * and, as data, {@link dev.berth.report.SweepTable}. {@link dev.berth.report.ResultFile} reads what a task wrote to its
 * {@code result.json}, {@link dev.berth.report.TaskResults} every task's; {@link dev.berth.report.ReportFiles} writes the three files into a run folder.
 * {@link dev.berth.report.Mailer} and {@link dev.berth.report.WebhookNotifier} send notifications and return a
 * {@link dev.berth.report.Delivery} instead of throwing.
 */
package dev.berth.report;
