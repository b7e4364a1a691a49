// The Berth dashboard. Every value that comes from a run is put on the page as text
// (textContent, attributes set one by one), never parsed as HTML.
'use strict';

const main = document.getElementById('main');
const SVG = 'http://www.w3.org/2000/svg';

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

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) { node.setAttribute(k, v); }
  if (text != null) { node.textContent = String(text); }
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
}

function duration(ms) {
  if (ms == null) { return ''; }
  const s = Math.round(ms / 1000);
  if (s < 60) { return s + 's'; }
  if (s < 3600) { return Math.floor(s / 60) + 'm ' + (s % 60) + 's'; }
  return Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
}

function bytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + ' ' + units[i];
}

function pill(status) { return el('span', { class: 'pill s-' + status }, status); }

function progress(done, total) {
  const bar = el('span', { class: 'bar' }, el('span'));
  bar.firstChild.style.width = (total ? Math.round(100 * done / total) : 0) + '%';
  return el('span', {}, bar, ' ', done + '/' + total);
}

function runLink(id) { return '/runs/' + encodeURIComponent(id); }

// The runs list: every run on the host, as berth ps --all sees it.
async function runsPage() {
  document.getElementById('where').textContent = 'runs on this host';
  const runs = await getJson('/api/runs');
  const rows = runs.map(r => el('tr', {},
    el('td', {}, el('a', { href: runLink(r.id) }, r.run)), el('td', {}, r.user), el('td', {}, r.state),
    el('td', {}, progress(r.done, r.total)), el('td', { class: 'num' }, r.running), el('td', { class: 'num' }, r.waiting),
    el('td', { class: 'muted' }, r.workdir), el('td', { class: 'muted' }, r.startedAt)));
  show(el('h1', {}, 'Runs'), runs.length ? el('table', {},
    el('tr', {}, ...['Run', 'User', 'State', 'Progress', 'Running', 'Waiting', 'Workdir', 'Started'].map(h => el('th', {}, h))),
    ...rows) : el('p', { class: 'muted' }, 'No Berth runs on this host in the last day.'));
  setTimeout(runsPage, 5000);
}

// Memory per device: what the run reserved and what its tasks were seen using, sampled as the page updates.
const samples = [];
function memoryChart(run) {
  const byDevice = {};
  for (const h of run.reservations || []) {
    const d = byDevice[h.device] || (byDevice[h.device] = { reserved: 0, used: 0 });
    d.reserved += h.memoryBytes; d.used += h.measuredBytes;
  }
  samples.push({ at: Date.now(), byDevice });
  if (samples.length > 120) { samples.shift(); }
  const devices = [...new Set(samples.flatMap(s => Object.keys(s.byDevice)))].sort();
  if (!devices.length) { return el('p', { class: 'muted' }, 'Nothing reserved now.'); }
  const w = 560, h = 90, box = el('div');
  for (const device of devices) {
    const max = Math.max(1, ...samples.flatMap(s => [(s.byDevice[device] || {}).reserved || 0, (s.byDevice[device] || {}).used || 0]));
    const line = key => samples.map((s, i) => {
      const x = samples.length < 2 ? w : Math.round(i * w / (samples.length - 1));
      const y = h - Math.round(((s.byDevice[device] || {})[key] || 0) * (h - 12) / max);
      return x + ',' + y;
    }).join(' ');
    const chart = svg('svg', { width: w + 120, height: h + 4, role: 'img' });
    chart.append(svg('polyline', { points: line('reserved'), fill: 'none', stroke: '#a16207', 'stroke-width': 2 }),
      svg('polyline', { points: line('used'), fill: 'none', stroke: '#1d4ed8', 'stroke-width': 2 }),
      svg('text', { x: w + 6, y: 12 }, device),
      svg('text', { x: w + 6, y: 28 }, 'reserved ' + bytes((samples[samples.length - 1].byDevice[device] || {}).reserved || 0)),
      svg('text', { x: w + 6, y: 44 }, 'used ' + bytes((samples[samples.length - 1].byDevice[device] || {}).used || 0)));
    box.append(chart);
  }
  return box;
}

// A run: its groups and tasks, kept current by the server's event stream.
function runPage(id) {
  const changes = el('div', { class: 'changes' });
  const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
  const memory = el('div');
  show(body, el('h2', {}, 'Memory reserved and used'), memory, el('h2', {}, 'Changes'), changes);
  let previous = {};
  const refreshMemory = () => getJson('/api/runs/' + encodeURIComponent(id))
    .then(run => memory.replaceChildren(memoryChart(run))).catch(() => {});
  const events = new EventSource('/api/runs/' + encodeURIComponent(id) + '/events');
  events.addEventListener('task', e => {
    const c = JSON.parse(e.data);
    changes.prepend(el('div', {}, new Date().toLocaleTimeString() + '  ' + c.id + ': ' + (c.from || '-') + ' → ' + c.to));
  });
  events.addEventListener('status', e => {
    const status = JSON.parse(e.data);
    body.replaceChildren(...renderRun(id, status, previous));
    previous = Object.fromEntries(status.tasks.map(t => [t.id, t.state]));
    refreshMemory();
  });
  events.addEventListener('end', () => events.close());
  events.onerror = () => { document.getElementById('live').textContent = 'reconnecting'; };
}

function renderRun(id, status, previous) {
  document.getElementById('where').textContent = status.run;
  const live = document.getElementById('live');
  live.textContent = status.live ? 'live' : 'ended';
  live.className = 'pill s-' + (status.live ? 'RUNNING' : status.status);
  const actions = el('p', {},
    status.live ? el('button', { onclick: () => confirm('Cancel the whole run?') && post('/api/runs/' + encodeURIComponent(id) + '/cancel', {}) }, 'Cancel run')
      : el('button', { onclick: () => post('/api/runs/' + encodeURIComponent(id) + '/retry', {}) }, 'Retry what did not succeed'));
  const groups = el('table', {}, el('tr', {}, el('th', {}, 'Group'), el('th', {}, 'Progress'), el('th', {}, 'Counts')),
    ...status.groups.map(g => el('tr', {}, el('td', {}, g.name),
      el('td', {}, progress(g.succeeded + g.failed + g.timedOut + g.cancelled + g.unreachable, g.total)), el('td', {}, g.summary))));
  const tasks = el('table', { id: 'tasks' },
    el('tr', {}, ...['Task', 'Group', 'Status', 'Device', 'Attempt', 'Run time', 'Why', 'Last stderr', ''].map(h => el('th', {}, h))),
    ...status.tasks.map(t => {
      const row = el('tr', { 'data-task': t.id, 'data-status': t.status },
        el('td', {}, el('a', { href: runLink(id) + '/tasks/' + encodeURIComponent(t.id) }, t.id)),
        el('td', {}, t.group), el('td', {}, pill(t.status)), el('td', {}, t.device || ''),
        el('td', { class: 'num' }, t.attempt), el('td', { class: 'num' }, duration(t.runtimeMs)),
        el('td', { class: 'muted' }, t.waitingFor ? 'waiting for ' + t.waitingFor : (t.reason || '')),
        el('td', {}, t.stderrTail ? el('pre', { class: 'tail' }, t.stderrTail) : ''),
        el('td', {}, status.live && (t.status === 'RUNNING' || t.status === 'PENDING')
          ? el('button', { onclick: () => post('/api/runs/' + encodeURIComponent(id) + '/cancel', { tasks: [t.id] }) }, 'Cancel') : ''));
      if (previous[t.id] && previous[t.id] !== t.state) { row.classList.add('changed'); }
      return row;
    }));
  return [el('h1', {}, status.run, ' ', pill(status.status)), actions, el('h2', {}, 'Groups'), groups,
    el('h2', {}, 'Tasks'), tasks];
}

// A task: its state and the tail of its log, streamed as it is written.
function taskPage(id, task) {
  document.getElementById('where').textContent = task;
  const state = el('p', { class: 'muted' }, '');
  const which = new URLSearchParams(location.search).get('stream') === 'stdout' ? 'stdout' : 'stderr';
  const log = el('pre', { class: 'log' }, '');
  show(el('h1', {}, el('a', { href: runLink(id) }, '← run'), ' ', task), state,
    el('p', {}, el('a', { href: '?stream=stderr' }, 'stderr'), ' · ', el('a', { href: '?stream=stdout' }, 'stdout')),
    el('h2', {}, 'Last lines of ' + which), log);
  const base = '/api/runs/' + encodeURIComponent(id);
  const events = new EventSource(base + '/tasks/' + encodeURIComponent(task) + '/log/events?stream=' + which);
  events.addEventListener('log', e => {
    log.textContent = JSON.parse(e.data).lines.join('\n');
    log.scrollTop = log.scrollHeight;
    refreshTask();
  });
  events.addEventListener('end', () => events.close());
  function refreshTask() {
    getJson(base + '/tasks').then(ts => {
      const t = ts.find(x => x.id === task);
      if (t) { state.replaceChildren(pill(t.status), ' attempt ' + t.attempt + ' ' + (t.device || '') + ' ' + duration(t.runtimeMs)); }
    }).catch(() => {});
  }
}

const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
if (parts[0] === 'runs' && parts.length === 2) {
  runPage(parts[1]);
} else if (parts[0] === 'runs' && parts.length === 4 && parts[2] === 'tasks') {
  taskPage(parts[1], parts[3]);
} else {
  runsPage().catch(e => show(el('p', { class: 'muted' }, String(e))));
}
