// The script of `gcnprobe report` (docs/report.md): renders the data the program embedded in
// <script id="gcnprobe-data"> (results/html_report.cpp writes it):
//   { generator, kind: "run" (run --json reports) or "isa" (isa --json documents, one report per
//     chip; records as results/isa_report.cpp writes them),
//     verdicts: [verdict names, or ISA outcomes; a case's v[k] indexes it],
//     runs: [{label, source, header: {driver, driver_version, device_name, chip, profile, ...},
//             summary (null: the report ends early), finished, cases}],
//     suites: [{name, rows: [format or "(binding)"], cols: [case name without suite and format]}],
//     cases: [{n: name, s: suite index, r: row, c: column, f: format, b: binding,
//              v: [verdict index per report, -1 where the report lacks the case],
//              d: [kinds of difference: verdict, missing, value, instruction] (several reports),
//              vs: [{profile, text, words} or null per report]: the V# the record says it bound,
//              rec: [the report's record, minus name/suite/format/binding/profile/device, its
//                    "lanes" as rows "L" of lane_fields]}],
//     lane_fields: [the members of a lane entry, in the order of the rows] }
// The matrices are drawn one suite per task after the header (a report of thousands of cases
// shows its header at once), a case's detail only when it is opened: click a cell or load the
// page with #case=<name>. When everything is drawn, <body> gets data-state="ready" and
// data-load-ms (performance.now() then).
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('gcnprobe-data').textContent);
  const V = D.verdicts;
  const R = D.runs.length;
  const atlas = R > 1;
  const byName = new Map();
  D.cases.forEach((c, i) => byName.set(c.n, i));
  const suiteCases = D.suites.map(() => []);
  D.cases.forEach((c, i) => suiteCases[c.s].push(i));
  const $ = (id) => document.getElementById(id);
  const ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
  const esc = (s) => String(s).replace(/[&<>"]/g, (ch) => ESC[ch]);
  const vname = (x) => (x < 0 ? 'absent' : V[x]);
  const letter = (k) => String.fromCharCode(65 + (k % 26)) + (k >= 26 ? String(Math.floor(k / 26)) : '');
  const runName = (k) => (atlas ? letter(k) + ': ' : '') + D.runs[k].label;
  const badge = (x) => '<span class="badge v-' + esc(vname(x)) + '">' + esc(vname(x)) + '</span>';

  let layout = 'result';
  let match = D.cases.map(() => true);
  let selected = -1;

  // ---- header: the reports, the legend, the counts ----
  function renderHeader() {
    $('generator').textContent = 'written by ' + D.generator + '; ' + D.cases.length + ' cases' +
        (atlas ? ' in ' + R + ' reports' : '');
    const fields = [['source', 'file'], ['driver', 'driver'], ['driver_version', 'driver version'],
      ['device_name', 'device'], ['chip', 'chip'], ['profile', 'profile'],
      ['vulkan_api_version', 'Vulkan'], ['gcnprobe_version', 'gcnprobe'], ['start_time', 'started'],
      ['shard', 'shard'], ['expectation', 'expected values']];
    let h = '<table class="runs"><tr><th></th>';
    for (let k = 0; k < R; ++k) h += '<th data-k="' + k + '">' + esc(runName(k)) + '</th>';
    h += '</tr>';
    for (const [key, title] of fields) {
      const vals = D.runs.map((r) => (key === 'source' ? r.source : r.header[key]));
      if (vals.every((x) => x === undefined || x === '')) continue;
      h += '<tr><th>' + esc(title) + '</th>';
      for (const x of vals) h += '<td>' + (x === null || x === undefined ? '<span class="muted">-</span>' : esc(x)) + '</td>';
      h += '</tr>';
    }
    h += '<tr><th>summary</th>';
    for (const r of D.runs) {
      h += r.summary === null ? '<td class="warn">the report ends early (the run did not finish); ' + r.cases + ' cases</td>'
        : '<td' + (r.finished ? '' : ' class="warn"') + '>' + esc(r.summary) + '</td>';
    }
    $('runs').innerHTML = h + '</tr></table>';

    let l = '';
    for (const v of V) l += '<span class="chip"><span class="sw v-' + esc(v) + '"></span>' + esc(v) + '</span>';
    if (atlas) l += '<span class="chip"><span class="sw v-absent"></span>absent</span>' +
      '<span class="chip"><span class="sw" style="outline:2px solid var(--diff);outline-offset:-1px"></span>differs between reports</span>';
    $('legend').innerHTML = l;

    const sel = $('filter-verdict');
    for (const v of V) sel.insertAdjacentHTML('beforeend', '<option value="' + esc(v) + '">' + esc(v) + '</option>');
    if (atlas) { $('only-diff-label').hidden = false; $('layout-label').hidden = false; }
  }

  function countsOf(indices) {
    const n = [];
    for (let k = 0; k < R; ++k) n.push(new Array(V.length + 1).fill(0));
    for (const i of indices) {
      const v = D.cases[i].v;
      for (let k = 0; k < R; ++k) ++n[k][v[k] < 0 ? V.length : v[k]];
    }
    return n;
  }

  function renderCounts() {
    const n = countsOf(D.cases.keys());
    let h = '<table class="counts" id="verdict-counts"><tr><th>report</th>';
    for (const v of V) h += '<th><span class="sw v-' + esc(v) + '"></span> ' + esc(v) + '</th>';
    if (atlas) h += '<th>absent</th>';
    h += '</tr>';
    for (let k = 0; k < R; ++k) {
      h += '<tr><td>' + esc(runName(k)) + '</td>';
      for (let x = 0; x < V.length + (atlas ? 1 : 0); ++x) {
        h += '<td data-k="' + k + '" data-verdict="' + esc(vname(x < V.length ? x : -1)) + '"' +
          (n[k][x] ? '' : ' class="zero"') + '>' + n[k][x] + '</td>';
      }
      h += '</tr>';
    }
    $('counts').innerHTML = h + '</table>';
  }

  // ---- the matrices ----
  function suiteSummary(si) {
    const n = countsOf(suiteCases[si]);
    const parts = [];
    for (let k = 0; k < R; ++k) {
      const p = [];
      for (let x = 0; x < V.length; ++x) if (n[k][x]) p.push(n[k][x] + ' ' + V[x]);
      parts.push((atlas ? letter(k) + ': ' : '') + p.join(', '));
    }
    return suiteCases[si].length + ' cases; ' + parts.join(' | ');
  }

  function cellHtml(i, k) {
    if (i < 0) return '<td class="e"></td>';
    const c = D.cases[i];
    const v = vname(c.v[k]);
    return '<td class="c v-' + esc(v) + (c.d ? ' dif' : '') + (i === selected ? ' sel' : '') +
      '" data-i="' + i + '" data-k="' + k + '" data-v="' + esc(v) + '"></td>';
  }

  function suiteHtml(si) {
    const s = D.suites[si];
    const grid = s.rows.map(() => new Array(s.cols.length).fill(-1));
    for (const i of suiteCases[si]) grid[D.cases[i].r][D.cases[i].c] = i;
    const colHead = (j, span) => '<th class="col"' + (span > 1 ? ' colspan="' + span + '"' : '') +
      ' title="' + esc(s.cols[j]) + '"><div>' + esc(s.cols[j]) + '</div></th>';
    let h = '<div class="scroll"><table class="matrix" data-suite="' + esc(s.name) + '"><thead>';
    if (!atlas) {
      h += '<tr><th></th>';
      for (let j = 0; j < s.cols.length; ++j) h += colHead(j, 1);
      h += '</tr>';
    } else if (layout === 'result') {
      h += '<tr><th></th>';
      for (let k = 0; k < R; ++k) {
        h += (k ? '<th></th>' : '') + '<th class="grp" colspan="' + s.cols.length + '" title="' +
          esc(D.runs[k].label) + '">' + esc(runName(k)) + '</th>';
      }
      h += '</tr><tr><th></th>';
      for (let k = 0; k < R; ++k) {
        if (k) h += '<th></th>';
        for (let j = 0; j < s.cols.length; ++j) h += colHead(j, 1);
      }
      h += '</tr>';
    } else {
      h += '<tr><th></th>';
      for (let j = 0; j < s.cols.length; ++j) h += (j ? '<th></th>' : '') + colHead(j, R);
      h += '</tr><tr><th></th>';
      for (let j = 0; j < s.cols.length; ++j) {
        if (j) h += '<th></th>';
        for (let k = 0; k < R; ++k) h += '<th class="sub">' + letter(k) + '</th>';
      }
      h += '</tr>';
    }
    h += '</thead><tbody>';
    for (let r = 0; r < s.rows.length; ++r) {
      h += '<tr><th class="row">' + esc(s.rows[r]) + '</th>';
      if (!atlas) {
        for (let j = 0; j < s.cols.length; ++j) h += cellHtml(grid[r][j], 0);
      } else if (layout === 'result') {
        for (let k = 0; k < R; ++k) {
          if (k) h += '<td class="gap"></td>';
          for (let j = 0; j < s.cols.length; ++j) h += cellHtml(grid[r][j], k);
        }
      } else {
        for (let j = 0; j < s.cols.length; ++j) {
          if (j) h += '<td class="gap"></td>';
          for (let k = 0; k < R; ++k) h += cellHtml(grid[r][j], k);
        }
      }
      h += '</tr>';
    }
    return h + '</tbody></table></div>';
  }

  function renderSuite(si) {
    let sec = document.querySelector('section.suite[data-suite-index="' + si + '"]');
    if (!sec) {
      sec = document.createElement('section');
      sec.className = 'suite';
      sec.dataset.suiteIndex = si;
      sec.dataset.suite = D.suites[si].name;
      $('suites').appendChild(sec);
    }
    sec.innerHTML = '<h2>' + esc(D.suites[si].name) + ' <span class="n">' + esc(suiteSummary(si)) +
      '</span></h2>' + suiteHtml(si);
    filterSuite(sec);
  }

  // ---- the differences between reports ----
  const DIFF_LIMIT = 500;
  const KIND_ORDER = D.diff_kinds || [];
  function renderDifferences(all) {
    if (!atlas) return;
    const list = [];
    D.cases.forEach((c, i) => { if (c.d) list.push(i); });
    const byKind = {};
    for (const i of list) for (const kind of D.cases[i].d) byKind[kind] = (byKind[kind] || 0) + 1;
    let h = '<h2>Cases that differ <span class="n muted">' + list.length + ' of ' + D.cases.length +
      (list.length ? ': ' + Object.keys(byKind).map((k) => byKind[k] + ' ' + k).join(', ') : '') +
      '</span></h2>';
    if (list.length) {
      h += '<table id="diff-list"><thead><tr><th>case</th><th>difference</th>';
      for (let k = 0; k < R; ++k) h += '<th title="' + esc(D.runs[k].label) + '">' + letter(k) + '</th>';
      h += '</tr></thead>';
      // Grouped by the weightiest kind a case shows (a verdict before an instruction before a
      // value before a missing case), each group in list order.
      const rank = (c) => Math.min(...c.d.map((x) => { const r = KIND_ORDER.indexOf(x); return r < 0 ? KIND_ORDER.length : r; }));
      const sorted = list.slice().sort((a, b) => rank(D.cases[a]) - rank(D.cases[b]) || a - b);
      const shown = all ? sorted : sorted.slice(0, DIFF_LIMIT);
      let group = -1;
      for (const i of shown) {
        const c = D.cases[i];
        if (rank(c) !== group) {
          group = rank(c);
          const n = list.filter((j) => rank(D.cases[j]) === group).length;
          h += '<tbody data-group="' + esc(KIND_ORDER[group] || 'other') + '"><tr class="grp"><th colspan="' + (2 + R) + '">' +
            esc(KIND_ORDER[group] || 'other') + ' <span class="n muted">' + n + '</span></th></tr>';
        }
        h += '<tr data-case="' + esc(c.n) + '" data-kinds="' + esc(c.d.join(' ')) + '"' +
          (match[i] ? '' : ' hidden') + '><td><a href="#case=' + encodeURIComponent(c.n) + '">' +
          esc(c.n) + '</a></td><td>' + c.d.map((x) => '<span class="kind">' + esc(x) + '</span>').join('') + '</td>';
        for (let k = 0; k < R; ++k) h += '<td>' + badge(c.v[k]) + '</td>';
        h += '</tr>';
      }
      h += '</tbody></table>';
      if (shown.length < sorted.length) {
        h += '<p class="more"><button id="diff-more">show all ' + list.length + '</button></p>';
      }
    }
    const sec = $('differences');
    sec.innerHTML = h;
    sec.hidden = false;
    const more = $('diff-more');
    if (more) more.addEventListener('click', () => renderDifferences(true));
  }

  // ---- the filter ----
  function globRegex(text) {
    if (!/[*?[]/.test(text)) return null;
    let re = '';
    for (const ch of text) {
      if (ch === '*') re += '.*';
      else if (ch === '?') re += '.';
      else re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
    return new RegExp('^' + re + '$');
  }

  function computeMatch() {
    const text = $('filter-name').value.trim();
    const verdict = $('filter-verdict').value;
    const onlyDiff = $('only-diff').checked;
    let re = null;
    try { re = globRegex(text); } catch (e) { re = null; }
    const vi = verdict ? V.indexOf(verdict) : -1;
    let n = 0;
    match = D.cases.map((c) => {
      const ok = (!text || (re ? re.test(c.n) : c.n.includes(text))) &&
        (vi < 0 || c.v.includes(vi)) && (!onlyDiff || !!c.d);
      if (ok) ++n;
      return ok;
    });
    const filtered = text || verdict || onlyDiff;
    $('filter-status').textContent = filtered ? n + ' of ' + D.cases.length + ' cases match' : '';
    document.body.dataset.matching = n;
  }

  function filterSuite(sec) {
    for (const tr of sec.querySelectorAll('tbody tr')) {
      let any = false;
      for (const td of tr.querySelectorAll('td.c')) {
        const ok = match[+td.dataset.i];
        td.classList.toggle('off', !ok);
        any = any || ok;
      }
      tr.classList.toggle('hide', !any);
    }
    let shown = 0;
    for (const i of suiteCases[+sec.dataset.suiteIndex]) if (match[i]) ++shown;
    sec.hidden = shown === 0;
  }

  function applyFilter() {
    computeMatch();
    for (const sec of document.querySelectorAll('section.suite')) filterSuite(sec);
    for (const tr of document.querySelectorAll('#diff-list tr[data-case]')) tr.hidden = !match[byName.get(tr.dataset.case)];
  }

  // ---- a case's detail ----
  function hexBits(h) {
    if (typeof h !== 'string' || !/^0x[0-9a-fA-F]+$/.test(h)) return null;
    let s = '';
    for (const ch of h.slice(2)) s += parseInt(ch, 16).toString(2).padStart(4, '0');
    return s;
  }

  // Expected over actual in binary, bytes apart, the bits that differ marked.
  function bitsCell(e, a) {
    let be = hexBits(e);
    let ba = hexBits(a);
    if (be === null || ba === null) return '<span class="muted">-</span>';
    const n = Math.max(be.length, ba.length);
    be = be.padStart(n, '0');
    ba = ba.padStart(n, '0');
    let diff = 0;
    const line = (bits, other) => {
      let out = '';
      for (let i = 0; i < n; ++i) {
        if (i && (n - i) % 8 === 0) out += ' ';
        out += bits[i] !== other[i] ? '<b>' + bits[i] + '</b>' : bits[i];
      }
      return out;
    };
    for (let i = 0; i < n; ++i) if (be[i] !== ba[i]) ++diff;
    return 'exp ' + line(be, ba) + '<br>act ' + line(ba, be) + (diff ? ' <span class="muted">(' + diff + ' bit' + (diff > 1 ? 's' : '') + ')</span>' : '');
  }

  const LANE_LIMIT = 256;
  function lanesTable(lanes, k, all) {
    const shown = all ? lanes : lanes.slice(0, LANE_LIMIT);
    // The bits come right after the lane's coordinates: the low bits a 1-ulp difference marks
    // are at their right end, and the wide value columns after them may wrap, never they.
    let h = '<table class="lanes" data-k="' + k + '"><tr><th>lane</th><th>element</th><th>byte</th>' +
      '<th>comp</th><th>bits (differing marked)</th><th>kind</th><th>memory before</th><th>expected</th>' +
      '<th>actual</th><th>classification</th></tr>';
    for (const l of shown) {
      const mm = l.verdict === 'mismatch';
      h += '<tr class="' + (mm ? 'mm' : 'ok') + '"><td class="lane">' + esc(l.lane) + '</td><td>' + esc(l.element) +
        '</td><td>' + esc(l.byte_offset) + '</td><td>' + esc(l.component) + '</td><td class="bits">' +
        bitsCell(l.expected_bits, l.actual_bits) + '</td><td>' + esc(l.kind) +
        '</td><td class="val">' + esc(l.memory_bits || '-') + '</td><td class="val">' + esc(l.expected_bits) +
        ' <span class="muted">' + esc(l.expected_value) + '</span></td><td class="val">' + esc(l.actual_bits) +
        ' <span class="muted">' + esc(l.actual_value) + '</span></td><td class="wrap">' +
        (mm ? esc(l.classification || 'mismatch') : '<span class="muted">match</span>') + '</td></tr>';
    }
    h += '</table>';
    if (shown.length < lanes.length) {
      h += '<p class="more"><button data-more-lanes="' + k + '">show all ' + lanes.length + ' entries</button></p>';
    }
    return h;
  }

  // A record's lane entries as objects (the data holds them as rows of D.lane_fields).
  function lanesOf(rec) {
    if (Array.isArray(rec.lanes)) return rec.lanes;
    return (rec.L || []).map((row) => {
      const o = {};
      D.lane_fields.forEach((f, j) => { o[f] = row[j]; });
      return o;
    });
  }

  function isaLines(rec) {
    const x = rec.isa_lines;
    return Array.isArray(x) && x.length ? x.join('\n') : null;
  }

  // A case of an ISA document (isa --json, D.kind "isa"): the driver's outcome and reason, the
  // case's own instruction as emitted, the twin in gcnprobe's own program, what is proven.
  function isaDetail(rec) {
    let h = '<dl>';
    const row = (t, x) => { h += '<dt>' + esc(t) + '</dt><dd>' + x + '</dd>'; };
    row('intended', '<code>' + esc(rec.instruction || '-') + '</code>');
    row('emitted', '<code>' + esc(rec.case_instruction || '-') + '</code>');
    row('driver route', esc(rec.outcome || '-'));
    if (rec.reason) row('reason', esc(rec.reason));
    if (rec.twin) row('twin', esc(rec.twin.case + ': ' + rec.twin.outcome + (rec.twin.reason ? ' (' + rec.twin.reason + ')' : '')));
    h += '</dl>';
    const proof = Array.isArray(rec.proof) ? rec.proof : [];
    if (proof.length) h += '<h3>what is proven</h3><pre class="isa">' + esc(proof.join('\n')) + '</pre>';
    if (rec.twin && Array.isArray(rec.twin.proof) && rec.twin.proof.length) {
      h += '<h3>twin in gcnprobe\'s own program</h3><pre class="isa">' + esc(rec.twin.proof.join('\n')) + '</pre>';
    }
    const isa = isaLines(rec);
    if (isa) h += '<h3>emitted buffer instructions</h3><pre class="isa">' + esc(isa) + '</pre>';
    return h;
  }

  function runDetail(c, k) {
    const rec = c.rec[k];
    let h = '<section class="run" data-k="' + k + '"><h3>' + esc(runName(k)) + ' ' + badge(c.v[k]) + '</h3>';
    if (!rec) return h + '<p class="muted">This report has no record of the case.</p></section>';
    if (D.kind === 'isa') return h + isaDetail(rec) + '</section>';
    h += '<dl>';
    const row = (t, x) => { h += '<dt>' + esc(t) + '</dt><dd>' + x + '</dd>'; };
    row('instruction', '<code>' + esc(rec.instruction || '-') + '</code>');
    row('tolerance', esc(rec.tolerance || '-'));
    row('expected values', esc(rec.expectation || '-'));
    if (rec.reason) row('reason', esc(rec.reason));
    if (rec.duration_s !== undefined) row('device time', esc(Number(rec.duration_s).toFixed(4)) + ' s');
    row('ISA digest', rec.isa_digest ? '<code>' + esc(rec.isa_digest) + '</code>'
      : '<span class="muted">none (no ISA visible: lavapipe, or no pipeline)</span>');
    const g = rec.changed_guard_bytes || [];
    row('guard bytes', g.length ? '<span class="warn">' + g.length + ' changed</span> at offsets <code>' +
      esc(g.slice(0, 64).join(', ')) + (g.length > 64 ? ', ...' : '') + '</code>' : 'none changed');
    const notes = rec.notes || [];
    if (notes.length) row('notes', notes.map((x) => esc(x)).join('<br>'));
    h += '</dl>';
    const isa = isaLines(rec);
    const isaNotes = notes.filter((x) => /^isa:/.test(x));
    if (isaNotes.length) h += '<h3>ISA check</h3><pre class="isa">' + esc(isaNotes.join('\n')) + '</pre>';
    const proof = Array.isArray(rec.proof) ? rec.proof : [];
    if (proof.length) h += '<h3>what is proven</h3><pre class="isa">' + esc(proof.join('\n')) + '</pre>';
    if (isa) h += '<h3>emitted buffer instructions</h3><pre class="isa">' + esc(isa) + '</pre>';
    const lanes = lanesOf(rec);
    if (lanes.length) {
      const mm = lanes.filter((l) => l.verdict === 'mismatch').length;
      h += '<h3>lanes: ' + lanes.length + ' compared components of failing lanes, ' + mm + ' mismatch' + (mm === 1 ? '' : 'es') + '</h3>';
      h += '<div class="lanes-wrap" data-k="' + k + '">' + lanesTable(lanes, k, false) + '</div>';
    } else {
      h += '<p class="muted">No lane entries (the report lists lanes of failing cases only).</p>';
    }
    return h + '</section>';
  }

  function openCase(name) {
    const el = $('detail');
    const i = byName.get(name);
    markSelected(i === undefined ? -1 : i);
    el.hidden = false;
    el.dataset.case = name;
    if (i === undefined) {
      el.innerHTML = '<a class="close" href="#">close</a><h2>' + esc(name) + '</h2><p>No case of this name in the report.</p>';
      return;
    }
    const c = D.cases[i];
    const s = D.suites[c.s];
    let h = '<a class="close" href="#">close</a><h2>' + esc(c.n) + '</h2><dl>';
    h += '<dt>suite</dt><dd>' + esc(s.name) + '</dd><dt>cell</dt><dd>' + esc(s.rows[c.r]) + ' / ' + esc(s.cols[c.c]) + '</dd>';
    h += '<dt>format</dt><dd>' + esc(c.f || '(untyped)') + '</dd><dt>binding</dt><dd>' + esc(c.b) + '</dd>';
    if (atlas) {
      h += '<dt>differs</dt><dd>' + (c.d ? c.d.map((x) => '<span class="kind">' + esc(x) + '</span>').join('') : 'no: the same in every report') + '</dd>';
    }
    h += '</dl>';
    if (c.vs) {
      const seen = new Map();
      c.vs.forEach((x, k) => { if (x) { const key = x.text + x.words; if (!seen.has(key)) seen.set(key, { x: x, ks: [] }); seen.get(key).ks.push(k); } });
      for (const { x, ks } of seen.values()) {
        h += '<h3>V# (profile ' + esc(x.profile) + (atlas ? '; ' + ks.map(letter).join(', ') : '') +
          ')</h3><pre class="vsharp">' + esc(x.text) + '\ndwords ' + esc(x.words) + '</pre>';
      }
    } else if (D.kind !== 'isa') {
      h += '<p class="muted">No V#: the records carry none (a case without one, or a report from an older gcnprobe).</p>';
    }
    for (let k = 0; k < R; ++k) h += runDetail(c, k);
    el.innerHTML = h;
    el.scrollTop = 0;
    for (const b of el.querySelectorAll('button[data-more-lanes]')) {
      b.addEventListener('click', () => {
        const k = +b.dataset.moreLanes;
        el.querySelector('.lanes-wrap[data-k="' + k + '"]').innerHTML = lanesTable(lanesOf(c.rec[k]), k, true);
      });
    }
  }

  function markSelected(i) {
    for (const td of document.querySelectorAll('td.c.sel')) td.classList.remove('sel');
    selected = i;
    if (i >= 0) for (const td of document.querySelectorAll('td.c[data-i="' + i + '"]')) td.classList.add('sel');
  }

  function closeCase() {
    $('detail').hidden = true;
    $('detail').innerHTML = '';
    markSelected(-1);
  }

  function fromHash() {
    const h = location.hash;
    if (h.startsWith('#case=')) {
      let name = h.slice(6);
      try { name = decodeURIComponent(name); } catch (e) { /* as written */ }
      openCase(name);
    } else {
      closeCase();
    }
  }

  // ---- events ----
  function wire() {
    $('suites').addEventListener('click', (ev) => {
      const td = ev.target.closest('td.c');
      if (td) location.hash = 'case=' + encodeURIComponent(D.cases[+td.dataset.i].n);
    });
    $('suites').addEventListener('mouseover', (ev) => {
      const td = ev.target.closest('td.c');
      if (!td || td.title) return;
      const c = D.cases[+td.dataset.i];
      const k = +td.dataset.k;
      td.title = c.n + '\n' + runName(k) + ': ' + vname(c.v[k]) + (c.d ? '\ndiffers: ' + c.d.join(', ') : '');
    });
    window.addEventListener('hashchange', fromHash);
    document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && !$('detail').hidden) location.hash = ''; });
    let timer = 0;
    $('filter-name').addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(applyFilter, 120); });
    $('filter-verdict').addEventListener('change', applyFilter);
    $('only-diff').addEventListener('change', applyFilter);
    $('layout').addEventListener('change', () => {
      layout = $('layout').value;
      for (let si = 0; si < D.suites.length; ++si) renderSuite(si);
    });
  }

  // Sticky headers sit below the sticky controls bar, whatever its height.
  const controlsHeight = () => document.documentElement.style.setProperty('--controls-h', $('controls').offsetHeight + 'px');
  window.addEventListener('resize', controlsHeight);
  renderHeader();
  controlsHeight();
  renderCounts();
  wire();
  computeMatch();
  fromHash();
  // One suite per task, so the page shows its header and first matrix before the rest.
  let next = 0;
  function step() {
    if (next < D.suites.length) {
      renderSuite(next++);
      setTimeout(step, 0);
      return;
    }
    renderDifferences(false);
    document.body.dataset.state = 'ready';
    document.body.dataset.cells = String(document.querySelectorAll('td.c').length);
    document.body.dataset.loadMs = performance.now().toFixed(1);
  }
  step();
}());
