// The Berth dashboard. Every value that comes from a run is put on the page as text
// (textContent, attributes set one by one), never parsed as HTML; the charts are SVG that the server
// drew with the code that draws them in report.html, every value in it escaped there, and are parsed
// as SVG documents, which run no script.
'use strict';

const main = document.getElementById('main');

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'onclick') { node.addEventListener('click', v); } else { node.setAttribute(k, v); }
  }
  for (const c of children) {
    node.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c)));
  }
  return node;
}

function show(...nodes) { main.replaceChildren(...nodes); }

async function getJson(url) {
  const r = await fetch(url, { credentials: 'same-origin' });
  if (!r.ok) { throw new Error(url + ': ' + r.status); }
  return r.json();
}

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) });
  const answer = await r.json().catch(() => ({}));
  if (!r.ok) { alert(answer.error || ('failed: ' + r.status)); }
  return r.ok;
}

function duration(ms) {
  if (ms == null) { return ''; }
  const s = Math.round(ms / 1000);
  if (s < 60) { return s + 's'; }
  if (s < 3600) { return Math.floor(s / 60) + 'm ' + (s % 60) + 's'; }
  return Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
}

function pill(status) { return el('span', { class: 'pill s-' + status }, status); }

function progress(done, total) {
  const bar = el('span', { class: 'bar' }, el('span'));
  bar.firstChild.style.width = (total ? Math.round(100 * done / total) : 0) + '%';
  return el('span', {}, bar, ' ', done + '/' + total);
}

function runLink(id) { return '/runs/' + encodeURIComponent(id); }

// The runs list: every run on the host, as berth ps --all sees it, pushed whenever the host ledger changes.
function runsPage() {
  document.getElementById('where').textContent = 'runs on this host';
  const events = new EventSource('/api/runs/events');
  events.addEventListener('runs', e => show(...renderRuns(JSON.parse(e.data))));
  events.onerror = () => { document.getElementById('live').textContent = 'reconnecting'; };
  events.onopen = () => { document.getElementById('live').textContent = ''; };
}

// A moment as the reader's clock shows it, to the minute; the exact time is in its title.
function when(iso) {
  const at = new Date(iso);
  if (isNaN(at)) { return el('span', {}, iso || ''); }
  const pad = n => String(n).padStart(2, '0');
  const text = at.getFullYear() + '-' + pad(at.getMonth() + 1) + '-' + pad(at.getDate()) + ' '
    + pad(at.getHours()) + ':' + pad(at.getMinutes());
  return el('span', { class: 'when', title: iso }, text);
}

function renderRuns(runs) {
  // Live runs first, then the latest: on a busy host the runs that matter now stay above the fold.
  const ordered = [...runs].sort((a, b) => (a.endedAt == null ? 0 : 1) - (b.endedAt == null ? 0 : 1)
    || String(b.startedAt).localeCompare(String(a.startedAt)));
  const rows = ordered.map(r => el('tr', { 'data-run': r.id, 'data-state': r.state },
    el('td', { class: 'id' }, el('a', { href: runLink(r.id) }, r.run)), el('td', {}, r.user), el('td', {}, r.state),
    el('td', {}, progress(r.done, r.total)), el('td', { class: 'num' }, r.running), el('td', { class: 'num' }, r.waiting),
    el('td', { class: 'muted' }, r.workdir), el('td', { class: 'muted' }, when(r.startedAt))));
  return [el('h1', {}, 'Runs'), runs.length ? el('table', { id: 'runs' },
    el('tr', {}, ...['Run', 'User', 'State', 'Progress', 'Running', 'Waiting', 'Workdir', 'Started'].map(h => el('th', {}, h))),
    ...rows) : el('p', { class: 'muted' }, 'No Berth runs on this host in the last day.')];
}

// One of the run's charts, as report.html shows it: its heading, caption, legend and SVG.
function chartSection(chart) {
  const doc = new DOMParser().parseFromString(chart.svg, 'image/svg+xml');
  const read = doc.documentElement.localName === 'svg' && !doc.querySelector('parsererror');
  const svg = read ? document.importNode(doc.documentElement, true)
    : el('p', { class: 'muted' }, 'This chart could not be read.');
  const legend = chart.legend.map(l => {
    const swatch = el('i', l.line ? { class: 'line' } : {});
    swatch.style.background = l.colour;
    return el('span', {}, swatch, l.label);
  });
  return el('section', { id: chart.id }, el('h2', {}, chart.title), el('p', { class: 'muted' }, chart.caption),
    el('div', { class: 'legend' }, ...legend), el('div', { class: 'chart' }, svg));
}

// A run: its groups and tasks, kept current by the server's event stream, and its charts, drawn anew by
// the server at each change.
function runPage(id) {
  const base = '/api/runs/' + encodeURIComponent(id);
  const changes = el('div', { class: 'changes' });
  const changesHeading = el('h2', { hidden: '' }, 'Changes'); // shown once a change comes
  const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
  const sweep = el('div');
  const charts = el('div');
  show(body, sweep, charts, changesHeading, changes);
  let previous = {};
  const sort = { key: 'id', down: false };
  let last = null;
  const drawSweep = () => sweep.replaceChildren(...sweepTable(id, last.tasks, sort, drawSweep));
  // One request at a time; changes that come meanwhile are drawn by one more request after it.
  let drawing = false;
  let again = false;
  const drawCharts = () => {
    if (drawing) { again = true; return; }
    drawing = true;
    getJson(base + '/charts').then(c => charts.replaceChildren(...(c.charts.length ? c.charts.map(chartSection)
      : [el('h2', {}, 'Timeline'), el('p', { class: 'muted' }, 'No attempt started.')])))
      .catch(() => {})
      .finally(() => {
        drawing = false;
        if (again) { again = false; drawCharts(); }
      });
  };
  const events = new EventSource(base + '/events');
  events.addEventListener('task', e => {
    const c = JSON.parse(e.data);
    changesHeading.hidden = false;
    changes.prepend(el('div', {}, new Date().toLocaleTimeString() + '  ' + c.id + ': ' + (c.from || '-') + ' → ' + c.to));
  });
  events.addEventListener('status', e => {
    last = JSON.parse(e.data);
    body.replaceChildren(...renderRun(id, last, previous));
    drawSweep();
    drawCharts();
    previous = Object.fromEntries(last.tasks.map(t => [t.id, t.state]));
  });
  events.addEventListener('end', () => events.close());
  events.onerror = () => { document.getElementById('live').textContent = 'reconnecting'; };
}

// The tasks of a sweep: their matrix values and the results they reported, sortable by any column.
function sweepTable(id, tasks, sort, redraw) {
  const swept = tasks.filter(t => t.params || t.results);
  if (!swept.length) { return []; }
  const keys = field => [...new Set(swept.flatMap(t => Object.keys(t[field] || {})))].sort();
  const columns = [{ key: 'id', title: 'Task', of: t => t.id }]
    .concat(keys('params').map(k => ({ key: 'p:' + k, title: k, of: t => (t.params || {})[k] })))
    .concat(keys('results').map(k => ({ key: 'r:' + k, title: k, result: true, of: t => (t.results || {})[k] })))
    .concat([{ key: 'status', title: 'Status', of: t => t.status }]);
  const column = columns.find(c => c.key === sort.key) || columns[0];
  const compare = (a, b) => {
    const x = column.of(a), y = column.of(b);
    if (x == null || y == null) { return x == null ? (y == null ? 0 : 1) : -1; }
    const nx = Number(x), ny = Number(y);
    const order = !isNaN(nx) && !isNaN(ny) ? nx - ny : String(x).localeCompare(String(y));
    return sort.down ? -order : order;
  };
  const text = v => v == null ? '' : (typeof v === 'object' ? JSON.stringify(v) : String(v));
  const head = el('tr', {}, ...columns.map(c => el('th', { class: 'sortable' + (c.result ? ' result' : ''),
    'data-key': c.key, onclick: () => { sort.down = sort.key === c.key ? !sort.down : false; sort.key = c.key; redraw(); } },
  c.title + (c.key === sort.key ? (sort.down ? ' ▼' : ' ▲') : ''))));
  const rows = [...swept].sort(compare).map(t => el('tr', { 'data-task': t.id }, ...columns.map(c =>
    c.key === 'status' ? el('td', {}, pill(t.status))
      : c.key === 'id' ? el('td', { class: 'id' }, el('a', { href: runLink(id) + '/tasks/' + encodeURIComponent(t.id) }, t.id))
        : el('td', { class: typeof c.of(t) === 'number' ? 'num' : '' }, text(c.of(t))))));
  return [el('h2', {}, 'Sweep'), el('table', { id: 'sweep' }, head, ...rows)];
}

function renderRun(id, status, previous) {
  document.getElementById('where').textContent = status.run;
  const live = document.getElementById('live');
  live.textContent = status.live ? 'live' : 'ended';
  live.className = 'pill s-' + (status.live ? 'RUNNING' : status.status);
  const actions = el('p', {},
    status.live ? el('button', { onclick: () => confirm('Cancel the whole run?') && post('/api/runs/' + encodeURIComponent(id) + '/cancel', {}) }, 'Cancel run')
      : el('button', { onclick: () => post('/api/runs/' + encodeURIComponent(id) + '/retry', {})
        .then(ok => ok && location.reload()) }, 'Retry what did not succeed')); // the run is live again: follow it anew
  const groups = el('table', {}, el('tr', {}, el('th', {}, 'Group'), el('th', {}, 'Progress'), el('th', {}, 'Counts')),
    ...status.groups.map(g => el('tr', {}, el('td', {}, g.name),
      el('td', {}, progress(g.succeeded + g.failed + g.timedOut + g.cancelled + g.unreachable, g.total)), el('td', {}, g.summary))));
  const tasks = el('table', { id: 'tasks' },
    el('tr', {}, ...['Task', 'Group', 'Status', 'Device', 'Attempt', 'Run time', 'Why', 'Last stderr', ''].map(h => el('th', {}, h))),
    ...status.tasks.map(t => {
      const row = el('tr', { 'data-task': t.id, 'data-status': t.status },
        el('td', { class: 'id' }, el('a', { href: runLink(id) + '/tasks/' + encodeURIComponent(t.id) }, t.id)),
        el('td', {}, t.group), el('td', {}, pill(t.status)), el('td', {}, t.device || ''),
        el('td', { class: 'num' }, t.attempt), el('td', { class: 'num' }, duration(t.runtimeMs)),
        el('td', { class: 'muted' }, t.waitingFor ? 'waiting for ' + t.waitingFor : (t.reason || '')),
        el('td', {}, t.stderrTail ? el('pre', { class: 'tail' }, t.stderrTail) : ''),
        el('td', {}, status.live && (t.status === 'RUNNING' || t.status === 'PENDING')
          ? el('button', { onclick: () => post('/api/runs/' + encodeURIComponent(id) + '/cancel', { tasks: [t.id] }) }, 'Cancel') : ''));
      if (previous[t.id] && previous[t.id] !== t.state) { row.classList.add('changed'); }
      return row;
    }));
  // The spec's revisions, when the run went on with a changed spec (a sweep grown after it finished).
  const revisions = status.revisions ? [el('h2', {}, 'Spec revisions'), el('ul', { id: 'revisions' },
    ...status.revisions.map(v => el('li', {}, new Date(v.at).toLocaleString() + ': ' + v.summary)))] : [];
  return [el('h1', {}, status.run, ' ', pill(status.status)), actions, el('h2', {}, 'Groups'), groups,
    ...revisions, el('h2', {}, 'Tasks'), tasks];
}

// A task: its state and the tail of its log (the latest attempt's, or one attempt's), streamed as it is written.
function taskPage(id, task) {
  document.getElementById('where').textContent = task;
  const query = new URLSearchParams(location.search);
  const which = query.get('stream') === 'stdout' ? 'stdout' : 'stderr';
  const attempt = /^[0-9]+$/.test(query.get('attempt') || '') ? query.get('attempt') : null;
  const state = el('p', { class: 'muted' }, '');
  const attempts = el('p', {});
  const log = el('pre', { class: 'log', id: 'log' }, '');
  const link = (stream, n) => '?stream=' + stream + (n ? '&attempt=' + n : '');
  show(el('h1', {}, el('a', { href: runLink(id) }, '← run'), ' ', task), state,
    el('p', {}, el('a', { href: link('stderr', attempt) }, 'stderr'), ' · ', el('a', { href: link('stdout', attempt) }, 'stdout')),
    attempts, el('h2', {}, 'Last lines of ' + which + (attempt ? ' of attempt ' + attempt : ' of the latest attempt')), log);
  const base = '/api/runs/' + encodeURIComponent(id);
  const events = new EventSource(base + '/tasks/' + encodeURIComponent(task) + '/log/events' + link(which, attempt));
  events.addEventListener('log', e => {
    log.textContent = JSON.parse(e.data).lines.join('\n');
    log.scrollTop = log.scrollHeight;
    refreshTask();
  });
  events.addEventListener('end', () => events.close());
  function refreshTask() {
    getJson(base + '/tasks').then(ts => {
      const t = ts.find(x => x.id === task);
      if (!t) { return; }
      state.replaceChildren(pill(t.status), ' attempt ' + t.attempt + ' ' + (t.device || '') + ' ' + duration(t.runtimeMs));
      attempts.replaceChildren('Attempts: ', el('a', { href: link(which, null) }, 'latest'),
        ...(t.attempts || []).flatMap(a => [' · ', el('a', { href: link(which, a.number), title: a.outcome || 'running' },
          String(a.number)), ...(a.job ? [' ', el('span', { class: 'muted' }, slurmJob(a))] : [])]));
    }).catch(() => {});
  }
}

// A Slurm job as its accounting tells it: id, state, node, time in the queue and measured peak memory.
function slurmJob(a) {
  const facts = ['job ' + a.job];
  if (a.jobState) { facts.push(a.jobState); }
  if (a.nodes) { facts.push('on ' + a.nodes); }
  if (a.queueWaitMs !== undefined) { facts.push('queued ' + duration(a.queueWaitMs)); }
  if (a.peakMemoryBytes !== undefined) { facts.push('MaxRSS ' + (a.peakMemoryBytes / 1048576).toFixed(1) + ' MiB'); }
  return '(' + facts.join(', ') + ')';
}

const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
if (parts[0] === 'runs' && parts.length === 2) {
  runPage(parts[1]);
} else if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'tasks') {
  taskPage(parts[1], parts[3]);
} else {
  runsPage().catch(e => show(el('p', { class: 'muted' }, String(e))));
}
