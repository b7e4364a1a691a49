package dev.berth.report;

/** The report's style sheet, inlined so the page opens from disk, in a mail, or offline. */
final class Style {

  private Style() {}

  // No '&' or '<' anywhere: the page stays well-formed XML, which the tests rely on to parse it.
  static final String CSS = """
      :root { color-scheme: light; --ink: #1f2328; --muted: #656d76; --line: #d8dee4; --soft: #f6f8fa;
        --accent: #2563eb; --ok: #1a7f4b; --bad: #c5221f; }
      * { box-sizing: border-box; }
      body { margin: 0; background: #fff; color: var(--ink);
        font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
      main { max-width: 1120px; margin: 0 auto; padding: 32px 28px 56px; }
      h1 { font-size: 28px; line-height: 1.2; margin: 4px 0 12px; display: flex; align-items: center; gap: 12px;
        flex-wrap: wrap; }
      h2 { font-size: 20px; margin: 0; }
      h3 { font-size: 14px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 20px 0 8px; }
      section { margin-top: 36px; }
      a { color: var(--accent); text-decoration: none; }
      a:hover { text-decoration: underline; }
      .eyebrow { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--muted); margin: 0; }
      .muted { color: var(--muted); }
      .facts { display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 0; color: var(--muted); font-size: 14px; }
      .facts div { display: flex; gap: 6px; }
      .facts dt { font-weight: 600; color: var(--ink); }
      .facts dd { margin: 0; }
      .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 12px; margin: 20px 0 0; }
      .card { border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; background: var(--soft); }
      .card .n { font-size: 24px; font-weight: 650; font-variant-numeric: tabular-nums; line-height: 1.2; }
      .card .l { font-size: 12px; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; }
      .card.ok .n { color: var(--ok); }
      .card.bad .n { color: var(--bad); }
      .callout { margin-top: 16px; padding: 12px 16px; border-left: 4px solid var(--ok); background: #eef8f2;
        border-radius: 0 8px 8px 0; }
      .warnings { margin-top: 16px; padding: 12px 16px; border-left: 4px solid #c9a227; background: #fdf8e7;
        border-radius: 0 8px 8px 0; font-size: 14px; }
      .warnings ul { margin: 4px 0 0; padding-left: 20px; }
      .revisions { margin-top: 16px; font-size: 14px; }
      .revisions ul { margin: 4px 0 0; padding-left: 20px; }
      nav { margin-top: 24px; display: flex; flex-wrap: wrap; gap: 8px; font-size: 14px; }
      nav a { border: 1px solid var(--line); border-radius: 999px; padding: 2px 12px; color: var(--ink); }
      .badge { display: inline-block; border-radius: 999px; padding: 1px 10px; font-size: 12px; font-weight: 650;
        letter-spacing: .03em; background: #eef1f4; color: #424a53; white-space: nowrap; vertical-align: middle; }
      h1 .badge { font-size: 14px; padding: 3px 12px; }
      .s-succeeded { background: #dcf3e5; color: var(--ok); }
      .s-failed { background: #fde2e1; color: var(--bad); }
      .s-timed-out, .s-interrupted { background: #fbf0cc; color: #7a5c00; }
      .s-cancelled, .s-unreachable { background: #eef1f4; color: #424a53; }
      .s-pending { background: #dfeafe; color: #1d4ed8; }
      .group-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap;
        border-bottom: 1px solid var(--line); padding-bottom: 8px; }
      .count { display: inline-block; min-width: 22px; text-align: center; border-radius: 999px; background: #eef1f4;
        color: var(--ink); font-size: 12px; padding: 0 6px; letter-spacing: 0; }
      .count.bad { background: #fde2e1; color: var(--bad); }
      .scroll { overflow-x: auto; }
      table { border-collapse: collapse; width: 100%; font-size: 14px; }
      th { text-align: left; font-weight: 600; color: var(--muted); font-size: 12px; text-transform: none;
        border-bottom: 2px solid var(--line); padding: 6px 10px; white-space: nowrap; }
      td { border-bottom: 1px solid #eaeef2; padding: 6px 10px; vertical-align: top; }
      tbody tr:nth-child(even) { background: #fafbfc; }
      .num { text-align: right; font-variant-numeric: tabular-nums; }
      td.id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px;
        white-space: nowrap; }
      td.outcome { white-space: nowrap; }
      td.logs { white-space: nowrap; font-size: 13px; }
      td.logs a + a { margin-left: 8px; }
      td.message { width: 50%; }
      pre { margin: 0; white-space: pre-wrap; word-break: break-word; font-size: 12.5px; line-height: 1.45;
        font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #fbf3f3;
        border: 1px solid #f3d6d5; border-radius: 6px; padding: 6px 8px; max-height: 18em; overflow: auto; }
      tr.best { background: #eef8f2 !important; }
      .pill { font-family: system-ui, sans-serif; font-size: 11px; background: var(--ok); color: #fff;
        border-radius: 999px; padding: 0 7px; margin-left: 4px; }
      td.objective { font-weight: 650; min-width: 110px; }
      .bar { display: block; height: 3px; margin-top: 3px; margin-left: auto; border-radius: 2px; background: #8fd1ad; }
      """
      + RunCharts.CSS
      + """
      footer { margin-top: 48px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line); padding-top: 12px; }
      @media print { nav { display: none; } main { padding: 0; } section { break-inside: avoid-page; } }
      """;
}
