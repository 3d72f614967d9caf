// zkgroups ui: read-only. Every value from the server is written with textContent, never parsed as HTML.
'use strict';
(function () {
  const params = new URLSearchParams(window.location.search);
  const group = params.get('group');
  const charts = new Map();
  let updates = 0;

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    if (cls) { e.className = cls; }
    return e;
  }
  function row(tbody, cells) {
    const tr = document.createElement('tr');
    cells.forEach(c => tr.appendChild(c instanceof Node ? wrap(c) : el('td', c === null || c === undefined ? '-' : c)));
    tbody.appendChild(tr);
  }
  function wrap(node) { const td = document.createElement('td'); td.appendChild(node); return td; }
  function seconds(s) {
    if (s === null || s === undefined) { return '-'; }
    if (s < 60) { return s.toFixed(1) + ' s'; }
    if (s < 3600) { return Math.floor(s / 60) + ' min ' + Math.floor(s % 60) + ' s'; }
    return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
  }
  function updated(at) {
    updates++;
    document.body.dataset.updates = String(updates);
    document.getElementById('updated').textContent = 'updated ' + at + ' (' + updates + ')';
  }

  function showGroups() {
    document.getElementById('groups-view').hidden = false;
    document.getElementById('title').textContent = 'all groups';
    const load = () => fetch('/api/groups', { credentials: 'same-origin' }).then(r => r.json()).then(doc => {
      const tbody = document.querySelector('#groups tbody');
      tbody.replaceChildren();
      doc.groups.forEach(g => {
        const a = el('a', g.group);
        a.href = '?group=' + encodeURIComponent(g.group);
        row(tbody, [a, el('span', g.status, 'status-' + g.status), g.phase, g.members, g.totalLag, seconds(g.maxLagSeconds)]);
      });
      updated(doc.at);
    });
    load();
    setInterval(load, 5000);
  }

  function chart(key, points) {
    const data = [points.map(p => p.at / 1000), points.map(p => p.lagSeconds), points.map(p => p.lag)];
    let c = charts.get(key);
    if (!c) {
      const box = el('div', null, 'chart');
      box.appendChild(el('h4', key));
      document.getElementById('charts').appendChild(box);
      const plot = new uPlot({
        width: 420, height: 160,
        series: [{}, { label: 'lag (s)', stroke: '#1565c0', scale: 's' }, { label: 'lag (records)', stroke: '#ef6c00', scale: 'r' }],
        axes: [{}, { scale: 's', label: 's' }, { scale: 'r', side: 1, label: 'records', grid: { show: false } }],
      }, data, box);
      charts.set(key, plot);
    } else {
      c.setData(data);
    }
  }

  function render(doc) {
    document.getElementById('title').textContent = doc.group;
    const summary = document.getElementById('summary');
    summary.replaceChildren(
      el('span', 'status ' + doc.status, 'status-' + doc.status),
      el('span', 'coordinator: ' + doc.coordinator),
      el('span', 'phase: ' + doc.phase),
      el('span', 'members: ' + doc.members.length),
      el('span', 'lag: ' + (doc.totalLag === null ? '-' : doc.totalLag) + ' records'),
      el('span', 'max lag: ' + seconds(doc.maxLagSeconds)));
    const members = document.querySelector('#members tbody');
    members.replaceChildren();
    doc.members.forEach(m => row(members, [m.id, m.host]));
    const parts = document.querySelector('#partitions tbody');
    parts.replaceChildren();
    doc.partitions.forEach(p => row(parts, [p.topic + ':' + p.partition, p.owner, p.offset, p.logEnd, p.lag,
      seconds(p.lagSeconds), p.commitAgeSeconds === null ? '-' : seconds(p.commitAgeSeconds) + ' ago',
      el('span', p.status, 'status-' + p.status)]));
    Object.keys(doc.chart).forEach(k => chart(k, doc.chart[k]));
    const history = document.getElementById('history');
    history.replaceChildren();
    doc.history.slice().reverse().forEach(e => {
      const li = document.createElement('li');
      li.appendChild(el('span', e.at, 'at'));
      const words = [e.type, e.member, e.host ? '(' + e.host + ')' : null, e.topic ? e.topic + ':' + e.partition : null,
        e.from ? 'from ' + e.from : null, (e.before !== null || e.after !== null) && e.type !== 'offsets-written'
          ? 'offset ' + (e.before === null ? '-' : e.before) + ' -> ' + (e.after === null ? '-' : e.after) : null,
        e.durationMs !== null ? 'took ' + e.durationMs + ' ms' : null, e.attribution ? 'by ' + e.attribution : null, e.detail];
      li.appendChild(el('span', words.filter(w => w !== null && w !== undefined).join('  ')));
      li.appendChild(el('span', e.source, 'source'));
      (e.changes || []).forEach(c => li.appendChild(el('div', c.topic + ':' + c.partition + ' ' + c.store + ' '
        + (c.before === null ? '-' : c.before) + ' -> ' + (c.after === null ? '(deleted)' : c.after), 'muted')));
      history.appendChild(li);
    });
    updated(doc.at);
  }

  function showGroup() {
    document.getElementById('group-view').hidden = false;
    const events = new EventSource('/events?group=' + encodeURIComponent(group));
    events.addEventListener('group', m => render(JSON.parse(m.data)));
  }

  if (group) { showGroup(); } else { showGroups(); }
})();
