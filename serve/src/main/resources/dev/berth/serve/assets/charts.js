// The dashboard's charts, inline SVG built node by node: memory reserved and used per device over the
// whole run (from the samples the run recorded), and the attempts of each task on a time line.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) { node.setAttribute(k, v); }
  if (text != null) { node.textContent = String(text); }
  return node;
}

function formatBytes(n) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : n) + ' ' + units[i];
}

function clockTime(ms) { return new Date(ms).toLocaleTimeString(); }

// At most `limit` points, keeping the first and the last: a long run's chart stays light.
function thin(points, limit) {
  if (points.length <= limit) { return points; }
  const step = points.length / limit;
  const kept = [];
  for (let i = 0; i < limit; i++) { kept.push(points[Math.floor(i * step)]); }
  kept[kept.length - 1] = points[points.length - 1];
  return kept;
}

// One chart per device: reserved (a step line: it changes when attempts start and end) and used.
function memoryCharts(samples) {
  const box = document.createElement('div');
  box.className = 'charts';
  if (!samples.length) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = 'No memory samples recorded yet.';
    box.append(p);
    return box;
  }
  const devices = [...new Set(samples.flatMap(s => Object.keys(s.devices)))];
  const first = samples[0].at;
  const last = samples[samples.length - 1].at;
  const w = 560, h = 90, span = Math.max(1, last - first);
  for (const device of devices) {
    const points = thin(samples.filter(s => s.devices[device]), 1500);
    const value = (s, key) => s.devices[device][key] || 0;
    const max = Math.max(1, ...points.map(s => Math.max(value(s, 'reservedBytes'), value(s, 'usedBytes'))));
    const x = s => Math.round((s.at - first) * w / span);
    const y = v => h - Math.round(v * (h - 12) / max);
    const steps = points.map((s, i) => (i ? x(s) + ',' + y(value(points[i - 1], 'reservedBytes')) + ' ' : '')
      + x(s) + ',' + y(value(s, 'reservedBytes'))).join(' ');
    const used = points.map(s => x(s) + ',' + y(value(s, 'usedBytes'))).join(' ');
    const now = points[points.length - 1];
    const peak = key => Math.max(...points.map(s => value(s, key)));
    const chart = svgNode('svg', { width: w + 260, height: h + 18, role: 'img', 'data-device': device });
    chart.append(
      svgNode('line', { x1: 0, y1: h, x2: w, y2: h, stroke: '#cbd5e1' }),
      svgNode('polyline', { points: steps, fill: 'none', stroke: '#a16207', 'stroke-width': 2 }),
      svgNode('polyline', { points: used, fill: 'none', stroke: '#1d4ed8', 'stroke-width': 2 }),
      svgNode('text', { x: 0, y: h + 14 }, clockTime(first)),
      svgNode('text', { x: w, y: h + 14, 'text-anchor': 'end' }, clockTime(last)),
      svgNode('text', { x: w + 8, y: 12, 'font-weight': 600 }, device),
      svgNode('text', { x: w + 8, y: 28, fill: '#a16207' }, 'reserved ' + formatBytes(value(now, 'reservedBytes'))
        + ' (peak ' + formatBytes(peak('reservedBytes')) + ')'),
      svgNode('text', { x: w + 8, y: 44, fill: '#1d4ed8' }, 'used ' + formatBytes(value(now, 'usedBytes'))
        + ' (peak ' + formatBytes(peak('usedBytes')) + ')'),
      svgNode('text', { x: w + 8, y: 60 }, 'of ' + formatBytes(value(now, 'totalBytes'))));
    box.append(chart);
  }
  return box;
}

const OUTCOME_COLOURS = { SUCCEEDED: '#16a34a', FAILED: '#dc2626', KILLED: '#dc2626', HOST_OOM: '#9333ea',
  GPU_OOM: '#9333ea', START_FAILED: '#dc2626', TIMED_OUT: '#ea580c', CANCELLED: '#9ca3af', INTERRUPTED: '#9ca3af' };

// One lane per task that has made an attempt; each attempt a bar from its start to its end (or now),
// coloured by how it ended, blue while it runs.
function attemptTimeline(tasks, now) {
  const lanes = tasks.filter(t => (t.attempts || []).length);
  const box = document.createElement('div');
  if (!lanes.length) {
    box.className = 'muted';
    box.textContent = 'No attempt has started yet.';
    return box;
  }
  const starts = lanes.flatMap(t => t.attempts.map(a => a.startedAt));
  const ends = lanes.flatMap(t => t.attempts.map(a => a.endedAt || now));
  const first = Math.min(...starts);
  const span = Math.max(1000, Math.max(...ends) - first);
  const label = 190, w = 620, lane = 16;
  const chart = svgNode('svg', { width: label + w + 10, height: lanes.length * lane + 20, role: 'img', id: 'timeline' });
  lanes.forEach((t, i) => {
    const top = i * lane;
    chart.append(svgNode('text', { x: 0, y: top + 12 }, t.id.length > 28 ? t.id.slice(0, 27) + '…' : t.id));
    for (const a of t.attempts) {
      const x = label + Math.round((a.startedAt - first) * w / span);
      const width = Math.max(2, Math.round(((a.endedAt || now) - a.startedAt) * w / span));
      const bar = svgNode('rect', { x, y: top + 3, width, height: lane - 5, rx: 2,
        fill: a.outcome ? (OUTCOME_COLOURS[a.outcome] || '#6b7280') : '#2563eb',
        'data-task': t.id, 'data-outcome': a.outcome || 'RUNNING' });
      bar.append(svgNode('title', {}, t.id + ' attempt ' + a.number + ' on ' + a.device + ': '
        + (a.outcome || 'running')));
      chart.append(bar);
    }
  });
  const axis = lanes.length * lane + 14;
  chart.append(svgNode('text', { x: label, y: axis }, clockTime(first)),
    svgNode('text', { x: label + w, y: axis, 'text-anchor': 'end' }, clockTime(first + span)));
  box.append(chart);
  return box;
}
