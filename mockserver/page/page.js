// The atmkit mock's admin page: the journal live, the active faults, the
// data set. It reads the admin API under /__admin with fetch, sending the
// admin token (when the mock wants one) as a bearer header, never in a URL;
// it keeps the token in sessionStorage, for this tab only.
//
// Everything it shows of the journal is put into the page as text
// (textContent, text nodes, attribute values), never parsed as HTML.
'use strict';

(function () {
  const api = '/__admin/';
  const tokenKey = 'atmkit.adminToken';
  const pollEvery = 1000;   // ms between the end of one poll and the next
  const retryEvery = 5000;  // ms between tries while the mock does not answer
  const firstLimit = 200;   // calls read when the page opens or a filter changes
  const pollLimit = 500;    // calls read at most per poll
  const keepRows = 500;     // rows the list keeps

  const $ = (id) => document.getElementById(id);

  // el makes an element with attributes and children; strings become text.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children) {
      if (c === undefined || c === null) continue;
      e.append(typeof c === 'string' ? document.createTextNode(c) : c);
    }
    return e;
  }

  function setText(id, text) { $(id).textContent = text; }

  // --- the admin API -------------------------------------------------

  class Unauthorized extends Error {}

  // exactIntegers keeps an integer beyond JavaScript's exact ones (a
  // fault's seed is an int64) as the text the API wrote, where the browser
  // gives a reviver the source text; elsewhere the number stays rounded.
  function exactIntegers(key, value, context) {
    if (typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)) {
      return context.source;
    }
    return value;
  }

  // utf8Header writes s as a header value holding its UTF-8 bytes, as
  // curl sends a token beyond ASCII and the mock reads it: a browser
  // writes each character of a header value as one byte (ISO-8859-1, so
  // "ä" would go as another byte than the token's) and refuses one beyond
  // U+00FF; each byte made a character of its own goes as that byte.
  function utf8Header(s) {
    return Array.from(new TextEncoder().encode(s), (b) => String.fromCharCode(b)).join('');
  }

  // call sends one admin API request and returns its decoded JSON (null
  // for an answer without a body). It throws Unauthorized on a 401, an
  // Error with the API's message on another error status.
  async function call(path, options) {
    const opts = Object.assign({ headers: {}, cache: 'no-store', credentials: 'omit' }, options || {});
    const token = sessionStorage.getItem(tokenKey);
    if (token) opts.headers['Authorization'] = 'Bearer ' + utf8Header(token);
    const resp = await fetch(api + path, opts);
    if (resp.status === 401) throw new Unauthorized('the admin API refused the token');
    const text = await resp.text();
    let body = null;
    if (text) {
      try { body = JSON.parse(text, exactIntegers); } catch (e) { body = null; }
    }
    if (!resp.ok) {
      const msg = body && body.error && body.error.message ? body.error.message : 'HTTP ' + resp.status;
      const err = new Error(msg);
      err.status = resp.status;
      throw err;
    }
    return body;
  }

  // --- state -----------------------------------------------------------

  let info = null;        // GET /__admin/info
  let lastSeq = 0;        // the newest seq listed under the current filters
  let generation = 0;     // bumped when the filters change: older answers are dropped
  let timer = 0;
  let polling = false;
  let faultsShown = '';   // the faults list as last rendered, to skip equal renders
  let openSeq = 0;        // the call opened, 0 for none
  let firstRead = true;   // the list is read anew: its first read lists the newest calls
  let cutAtStart = false; // that first read found more calls than it reads
  let notListed = 0;      // calls that came faster than the page reads them, since then
  let cleared = null;     // the journal's cleared count when the list was read anew; null: not yet read
  let started = false;

  function setState(text) {
    if ($('state').textContent !== text) setText('state', text);
  }

  // --- opening: the token --------------------------------------------

  // askToken forgets the token kept, stops polling and asks for it.
  function askToken(message) {
    stop();
    sessionStorage.removeItem(tokenKey);
    $('app').hidden = true;
    $('forget').hidden = true;
    $('login').hidden = false;
    setText('login-error', message || '');
    setState('The admin API needs its token.');
    $('token').focus();
  }

  $('login').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = $('token');
    const token = input.value.trim();
    input.value = '';
    if (!token) {
      setText('login-error', 'Type the token the mock was started with (--admin-token).');
      return;
    }
    sessionStorage.setItem(tokenKey, token);
    open();
  });

  $('forget').addEventListener('click', () => askToken(''));

  // open reads the mock's settings, then shows the page and starts polling.
  async function open() {
    stop();
    try {
      info = await call('info');
    } catch (e) {
      if (e instanceof Unauthorized) {
        askToken(sessionStorage.getItem(tokenKey) !== null ? 'The mock refused that token.' : '');
        return;
      }
      notAnswering();
      return;
    }
    $('login').hidden = true;
    $('app').hidden = false;
    $('forget').hidden = !info.adminToken;
    const warning = $('warning');
    warning.hidden = !info.warning;
    warning.textContent = info.warning ? 'Warning: ' + info.warning : '';
    $('calls').classList.toggle('replaying', !!info.replay);
    if (!started) {
      started = true;
      // WSDL: the fetches of the service description, as the API's
      // operation filter and a WSDL fault name them.
      fillOptions($('filter-operation'), info.operations.concat(['WSDL']));
      fillOptions($('filter-binding'), info.bindings);
      fillOptions($('f-operation'), info.operations.concat(['WSDL']));
      fillOptions($('f-binding'), info.bindings);
    }
    loadData();
    restart();
  }

  // notAnswering says the mock does not answer and opens the page anew
  // in a while: a mock started again has a journal of its own.
  function notAnswering() {
    setState('The mock does not answer (stopped?); trying again every few seconds.');
    stop();
    timer = setTimeout(open, retryEvery);
  }

  function fillOptions(select, names) {
    for (const n of names) select.append(el('option', { value: n }, n));
  }

  // --- polling -----------------------------------------------------------

  function stop() {
    clearTimeout(timer);
    timer = 0;
  }

  function schedule(ms) {
    stop();
    timer = setTimeout(poll, ms);
  }

  // restart empties the list and reads it anew (the page opened, a filter
  // changed).
  function restart() {
    generation++;
    lastSeq = 0;
    firstRead = true;
    cutAtStart = false;
    notListed = 0;
    cleared = null;
    setText('calls-skipped', '');
    $('call-rows').replaceChildren();
    updateCount();
    schedule(0);
  }

  document.addEventListener('visibilitychange', () => {
    if ($('app').hidden) return;
    if (document.hidden) {
      stop();
      setState('Paused while this tab is hidden.');
    } else {
      schedule(0);
    }
  });

  function filterQuery() {
    const q = new URLSearchParams();
    const op = $('filter-operation').value;
    const b = $('filter-binding').value;
    const st = $('filter-status').value.trim();
    if (op) q.set('operation', op);
    if (b) q.set('binding', b);
    if (st) q.set('status', st);
    return q;
  }

  // poll reads the calls newer than the last one listed and the faults;
  // it runs once a second at most, and not while the tab is hidden.
  async function poll() {
    timer = 0;
    if (polling) return;
    if (document.hidden) {
      setState('Paused while this tab is hidden.');
      return;
    }
    polling = true;
    const gen = generation;
    const q = filterQuery();
    q.set('summary', 'true');
    q.set('since', String(lastSeq));
    q.set('limit', String(firstRead ? firstLimit : pollLimit));
    try {
      const [reqs, faults] = await Promise.all([call('requests?' + q.toString()), call('faults')]);
      if (!$('login').hidden) { // forgotten meanwhile
        polling = false;
        return;
      }
      if (gen === generation && (reqs.instance !== info.instance || typeof reqs.lastSeq === 'number' && reqs.lastSeq < lastSeq)) {
        // The mock started anew between two polls (its calls count from
        // 1 again, and its data and faults may differ): open it anew.
        // Its instance tells, also when its calls already count beyond
        // the last one listed; the count going backwards, too.
        polling = false;
        setText('calls-status', 'The mock started anew: the calls listed are its own.');
        open();
        return;
      }
      if (gen === generation && typeof reqs.cleared === 'number') {
        if (cleared !== null && reqs.cleared !== cleared) {
          // Emptied since the list was read (POST /__admin/reset from a
          // test suite, DELETE /__admin/requests from another tab): the
          // calls listed are gone; list those made since, as a restart.
          polling = false;
          setText('calls-status', 'The journal was cleared (POST /__admin/reset or DELETE /__admin/requests): the calls listed are those made since.');
          restart();
          return;
        }
        cleared = reqs.cleared;
      }
      if (gen === generation) {
        addCalls(reqs.requests || [], reqs.matched, q.has('operation') || q.has('binding') || q.has('status'));
        firstRead = false;
      }
      showHeld(reqs.held || []);
      showFaults(faults.faults || []);
      setState(info.journalSize > 0 ? 'Live: new calls appear as they come.' : 'The journal is off (--journal-size 0): no calls are kept.');
    } catch (e) {
      polling = false;
      if (e instanceof Unauthorized) {
        askToken('The mock refused the token.');
        return;
      }
      if (!$('login').hidden) return; // the token was refused meanwhile
      if (e.status !== 400) {
        notAnswering();
        return;
      }
      setState('Filter: ' + e.message);
    }
    polling = false;
    // The filters changed meanwhile: read the list anew at once.
    if (!document.hidden && $('login').hidden) schedule(gen === generation ? pollEvery : 0);
  }

  // --- the calls ---------------------------------------------------------

  function timeText(iso) {
    const d = new Date(iso);
    if (isNaN(d)) return iso;
    const p = (n, w) => String(n).padStart(w, '0');
    return p(d.getHours(), 2) + ':' + p(d.getMinutes(), 2) + ':' + p(d.getSeconds(), 2) + '.' + p(d.getMilliseconds(), 3);
  }

  function durationText(e) {
    const ms = e.durationMs;
    if (typeof ms !== 'number') return e.duration || '';
    if (ms < 1) return ms.toFixed(2) + ' ms';
    if (ms < 1000) return ms.toFixed(1) + ' ms';
    return (ms / 1000).toFixed(2) + ' s';
  }

  function statusText(e) {
    const s = e.status ? String(e.status) : 'none';
    return e.error ? s + ' ' + e.error : s;
  }

  function callName(e) {
    return e.operation || (e.method + ' ' + e.path);
  }

  // callRow is one call of the list, with the test hooks: data-seq,
  // data-operation, data-binding, data-status and, when a fault answered
  // it, data-fault (the fault's id); under replay, data-source (where its
  // answer came from, as the Source column, which only a replaying mock's
  // page shows, says).
  function callRow(e) {
    const button = el('button', { type: 'button', class: 'open', 'aria-label': 'Open call ' + e.seq + ' at ' + timeText(e.time) },
      timeText(e.time));
    button.addEventListener('click', () => openCall(e.seq));
    const status = e.status >= 400 || e.status === 0 ? 'bad' : '';
    const row = el('tr', {
      'data-seq': e.seq,
      'data-operation': e.operation || '',
      'data-binding': e.binding || '',
      'data-status': e.status,
      'data-fault': e.fault || undefined,
      'data-source': e.source || undefined,
      class: (e.fault ? 'faulted ' : '') + (e.seq === openSeq ? 'opened' : ''),
    },
    el('td', null, button),
    el('td', { class: e.operation ? '' : 'path' }, callName(e)),
    el('td', null, e.binding || ''),
    el('td', { class: 'status ' + status }, statusText(e)),
    el('td', { class: 'num' }, durationText(e)),
    el('td', null, e.fault ? e.fault + ' (' + (e.faultKind || 'fault') + ')' : ''),
    el('td', { class: 'source' }, e.source || ''));
    return row;
  }

  // addCalls lists the calls a poll read (oldest first). matched is how
  // many the filters matched since the last call listed: a poll reads the
  // newest pollLimit of them, so those before are not listed, and the
  // page says how many. Without filters the calls' numbers count them
  // too, those the journal dropped before the page read them included.
  // The first read lists the newest calls: it misses none.
  function addCalls(entries, matched, filtered) {
    if (entries.length === 0) return;
    let missed = typeof matched === 'number' ? Math.max(0, matched - entries.length) : 0;
    if (firstRead) {
      cutAtStart = missed > 0;
    } else {
      if (!filtered && lastSeq > 0) missed = Math.max(missed, entries[0].seq - lastSeq - 1);
      if (missed > 0) {
        notListed += missed;
        setText('calls-skipped', skippedText(notListed));
      }
    }
    const rows = $('call-rows');
    const frag = document.createDocumentFragment();
    for (let i = entries.length - 1; i >= 0; i--) { // newest first
      const e = entries[i];
      if (e.seq <= lastSeq) continue;
      frag.append(callRow(e));
    }
    lastSeq = Math.max(lastSeq, entries[entries.length - 1].seq);
    rows.prepend(frag);
    while (rows.rows.length > keepRows) rows.lastElementChild.remove();
    updateCount();
  }

  function skippedText(n) {
    const count = n.toLocaleString('en-US');
    return n === 1 ? '1 call came faster than the page reads and is not listed; the calls after it are.'
      : count + ' calls came faster than the page reads and are not listed; the calls after them are.';
  }

  function updateCount() {
    const n = $('call-rows').rows.length;
    setText('calls-count', n ? '(' + n + (n >= keepRows || cutAtStart ? ', the newest' : '') + ')' : '');
    $('calls-empty').hidden = n > 0;
    $('calls').hidden = n === 0;
  }

  // Clear calls empties the mock's journal (DELETE /__admin/requests) for
  // every viewer, then lists anew: calls keep their numbers counting, so
  // only those made after it appear.
  $('clear-calls').addEventListener('click', async () => {
    const button = $('clear-calls');
    button.disabled = true;
    try {
      await call('requests', { method: 'DELETE' });
      setText('calls-status', 'Cleared: the journal keeps only the calls made from now on.');
      restart();
    } catch (e) {
      if (e instanceof Unauthorized) { askToken('The mock refused the token.'); return; }
      setText('calls-status', 'Clearing the calls: ' + e.message);
    } finally {
      button.disabled = false;
    }
  });

  const filters = $('filters');
  filters.addEventListener('change', restart);
  filters.addEventListener('submit', (ev) => { ev.preventDefault(); restart(); });
  filters.addEventListener('reset', () => setTimeout(restart, 0));

  // --- one call opened ---------------------------------------------------

  async function openCall(seq) {
    openSeq = seq;
    for (const r of $('call-rows').rows) r.classList.toggle('opened', Number(r.dataset.seq) === seq);
    const section = $('call');
    section.hidden = false;
    setText('call-title', 'Call ' + seq);
    setText('call-error', '');
    $('call-facts').replaceChildren();
    $('call-request').replaceChildren();
    $('call-answer').replaceChildren();
    let e;
    try {
      e = await call('requests/' + seq);
    } catch (err) {
      if (err instanceof Unauthorized) { askToken('The mock refused the token.'); return; }
      setText('call-error', err.status === 404 ? 'This call has left the journal (it keeps the newest ' + info.journalSize + ').' : err.message);
      $('call-title').focus();
      return;
    }
    if (openSeq !== seq) return;
    setText('call-title', 'Call ' + e.seq + ': ' + callName(e) + (e.binding ? ' over ' + e.binding : ''));
    showFacts(e);
    showRequest(e);
    showAnswer(e);
    $('call-title').focus();
  }

  $('call-close').addEventListener('click', () => {
    $('call').hidden = true;
    const row = $('call-rows').querySelector('tr[data-seq="' + openSeq + '"] button');
    openSeq = 0;
    for (const r of $('call-rows').rows) r.classList.remove('opened');
    if (row) row.focus();
  });

  // showHeld says which calls a fault holds back now (a delay, a
  // dribble): the list shows a call only once it is answered.
  function showHeld(held) {
    if (!held.length) {
      setText('calls-held', '');
      return;
    }
    const now = Date.now();
    const parts = held.map((h) => (h.operation || h.path) + (h.binding ? ' over ' + h.binding : '') +
      ' (' + h.fault + ', ' + h.faultKind + ', ' + Math.max(0, Math.round((now - new Date(h.since).getTime()) / 1000)) + ' s)');
    setText('calls-held', (held.length === 1 ? '1 call' : held.length + ' calls') + ' held by a fault now: ' + parts.join('; '));
  }

  function showFacts(e) {
    const dl = $('call-facts');
    const fact = (k, v) => { if (v !== undefined && v !== null && v !== '') dl.append(el('dt', null, k), el('dd', null, String(v))); };
    fact('time', new Date(e.time).toLocaleString() + ' (' + timeText(e.time) + ')');
    fact('status', statusText(e));
    fact('duration', e.duration);
    if (e.fault) fact('fault', e.fault + ' (' + (e.faultKind || '') + ')');
    if (e.source) fact('source', sourceText(e.source));
    if (e.params) {
      fact('parameters', Object.keys(e.params).sort().map((k) => k + ' = ' + e.params[k]).join('\n'));
    }
  }

  // sourceText says where a replayed answer came from: a recording
  // ("atm.yaml#6": a cassette and the interaction's id, as atmkit cassette
  // list numbers them), the upstream or the fixtures (no recording).
  function sourceText(source) {
    if (source === 'fixtures') return 'fixtures (no recording matched: the data set answered)';
    if (source === 'upstream') return 'upstream (no recording matched: the real deployment answered)';
    const hash = source.lastIndexOf('#');
    if (hash < 0) return source;
    return source + ' (recorded: cassette ' + source.slice(0, hash) + ', interaction ' + source.slice(hash + 1) + ')';
  }

  function headerText(h) {
    const lines = [];
    for (const name of Object.keys(h || {}).sort()) {
      for (const v of h[name]) lines.push(name + ': ' + v);
    }
    return lines.join('\n');
  }

  function contentType(h) {
    for (const name of Object.keys(h || {})) {
      if (name.toLowerCase() === 'content-type') return (h[name][0] || '').toLowerCase();
    }
    return '';
  }

  // message shows a request's or an answer's headers and body.
  function message(box, first, m, none) {
    box.append(el('pre', { class: 'line' }, first));
    if (!m) {
      box.append(el('p', { class: 'hint' }, none));
      return;
    }
    box.append(el('h4', null, 'Headers' + (m.headerCut ? ' (cut: those that fitted)' : '')));
    box.append(el('pre', { class: 'headers' }, headerText(m.headers)));
    let note = '';
    if (m.size < 0) note = 'not read';
    else if (m.cut) note = 'first ' + byteLength(m.body) + ' of ' + m.size + ' bytes';
    else note = m.size + ' bytes';
    if (m.charset) note += ', decoded from ' + m.charset;
    box.append(el('h4', null, 'Body (' + note + ')'));
    if (m.body) {
      const pretty = prettyBody(m.body, contentType(m.headers));
      box.append(el('pre', { class: 'body' }, pretty));
    } else {
      box.append(el('p', { class: 'hint' }, 'empty'));
    }
  }

  function byteLength(s) { return new TextEncoder().encode(s).length; }

  function showRequest(e) {
    const target = e.path + (e.query ? '?' + e.query : '');
    message($('call-request'), e.method + ' ' + target, e.request,
      'The journal keeps no headers or bodies (--journal-body-max 0).');
  }

  function showAnswer(e) {
    const first = e.status ? 'HTTP ' + e.status : 'no answer' + (e.error ? ' (' + e.error + ')' : '');
    message($('call-answer'), first, e.response,
      e.status ? 'The journal keeps no headers or bodies (--journal-body-max 0).' : 'No answer was written.');
  }

  // --- pretty-printing ----------------------------------------------------

  function prettyBody(body, ct) {
    const t = body.trim();
    if (ct.includes('json') || (!ct.includes('html') && (t.startsWith('{') || t.startsWith('[')))) return prettyJSON(t);
    if (ct.includes('html')) return body;
    if (ct.includes('xml') || t.startsWith('<')) return prettyXML(t);
    return body;
  }

  // prettyJSON indents JSON text as JSON.stringify(v, null, 2) writes it.
  // It works on cut text too: it only follows strings and brackets.
  function prettyJSON(s) {
    let out = '';
    let depth = 0;
    let inString = false;
    let escaped = false;
    const nl = () => '\n' + '  '.repeat(depth);
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (inString) {
        out += c;
        if (escaped) escaped = false;
        else if (c === '\\') escaped = true;
        else if (c === '"') inString = false;
        continue;
      }
      switch (c) {
        case '"': inString = true; out += c; break;
        case ' ': case '\n': case '\r': case '\t': break;
        case '{': case '[': {
          let j = i + 1;
          while (j < s.length && ' \n\r\t'.includes(s[j])) j++;
          if (s[j] === (c === '{' ? '}' : ']')) { out += c + s[j]; i = j; break; }
          depth++;
          out += c + nl();
          break;
        }
        case '}': case ']': depth = Math.max(0, depth - 1); out += nl() + c; break;
        case ',': out += ',' + nl(); break;
        case ':': out += ': '; break;
        default: out += c;
      }
    }
    return out;
  }

  // prettyXML indents XML text, one element a line, an element holding
  // only text on one line. It works on cut or ill-formed text too: it only
  // splits it into tags and text.
  function prettyXML(s) {
    const tokens = s.match(/<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<!--[\s\S]*?(?:-->|$)|<[^>]*>?|[^<]+/g) || [];
    const out = [];
    const pad = (n) => '  '.repeat(n);
    const isTag = (t) => t !== undefined && t.startsWith('<') && !t.startsWith('<![CDATA[');
    const isClose = (t) => t !== undefined && t.startsWith('</');
    let depth = 0;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (isClose(t)) {
        depth = Math.max(0, depth - 1);
        out.push(pad(depth) + t);
      } else if (t.startsWith('<?') || t.startsWith('<!')) {
        out.push(pad(depth) + t); // a declaration, a comment, CDATA
      } else if (isTag(t)) {
        if (t.endsWith('/>') || !t.endsWith('>')) {
          out.push(pad(depth) + t);
        } else if (isClose(tokens[i + 1])) {
          out.push(pad(depth) + t + tokens[i + 1]);
          i++;
        } else if (tokens[i + 1] !== undefined && !isTag(tokens[i + 1]) && isClose(tokens[i + 2])) {
          out.push(pad(depth) + t + tokens[i + 1] + tokens[i + 2]);
          i += 2;
        } else {
          out.push(pad(depth) + t);
          depth++;
        }
      } else if (t.trim() !== '') {
        out.push(pad(depth) + t.trim());
      }
    }
    return out.join('\n');
  }

  // --- faults -------------------------------------------------------------

  // fieldValue is a value as --fault's key=value form writes it: in double
  // quotes (\" and \\ inside) when it holds a comma, a semicolon or a
  // quote, or white space at its ends, which the form would cut or trim.
  function fieldValue(v) {
    const s = String(v);
    if (!/[,;"]/.test(s) && s === s.trim()) return s;
    return '"' + s.replace(/[\\"]/g, (c) => '\\' + c) + '"';
  }

  // faultText is a fault as --fault's key=value form writes it, times apart.
  function faultText(f) {
    const parts = [];
    const walk = (obj, prefix) => {
      for (const [k, v] of Object.entries(obj)) {
        if (k === 'id' || k === 'times') continue;
        const name = prefix ? prefix + '.' + k : k;
        if (v !== null && typeof v === 'object') {
          if (Object.keys(v).length === 0) parts.push(name);
          else walk(v, name);
        } else if (v === true) {
          parts.push(name);
        } else {
          parts.push(name + '=' + fieldValue(v));
        }
      }
    };
    walk(f, '');
    return parts.join(', ');
  }

  function timesText(f) {
    if (!f.times) return 'until removed';
    return f.times === 1 ? '1 call left' : f.times + ' calls left';
  }

  function showFaults(faults) {
    const shown = JSON.stringify(faults);
    if (shown === faultsShown) return;
    faultsShown = shown;
    const list = $('faults');
    const focused = document.activeElement && list.contains(document.activeElement);
    list.replaceChildren();
    for (const f of faults) {
      const descID = 'fault-' + f.id;
      const remove = el('button', { type: 'button', class: 'remove', 'aria-describedby': descID }, 'Remove');
      remove.addEventListener('click', () => removeFault(f.id, remove));
      list.append(el('li', { 'data-fault-id': f.id },
        el('span', { id: descID, class: 'fault-text' },
          el('strong', null, f.id), ' ', faultText(f)),
        el('span', { class: 'times' }, timesText(f)),
        remove));
    }
    $('faults-empty').hidden = faults.length > 0;
    if (focused) (list.querySelector('button') || $('fault-details').querySelector('summary')).focus();
  }

  async function refreshFaults() {
    try {
      const r = await call('faults');
      showFaults(r.faults || []);
    } catch (e) {
      if (e instanceof Unauthorized) askToken('The mock refused the token.');
    }
  }

  async function removeFault(id, button) {
    button.disabled = true;
    try {
      await call('faults/' + encodeURIComponent(id), { method: 'DELETE' });
      setText('faults-status', 'Removed ' + id + '.');
    } catch (e) {
      if (e instanceof Unauthorized) { askToken('The mock refused the token.'); return; }
      setText('faults-status', e.status === 404 ? id + ' was gone already (its times ran out, or it was removed).' : 'Removing ' + id + ': ' + e.message);
    }
    await refreshFaults();
    // The button is gone: the next fault's, or the form's, takes the focus.
    if (document.activeElement === document.body || document.activeElement === button) {
      ($('faults').querySelector('button') || $('fault-details').querySelector('summary')).focus();
    }
  }

  // int64Min and int64Max bound the integers the admin API reads (a
  // fault's integers are Go's int64).
  const int64Min = -(2n ** 63n);
  const int64Max = 2n ** 63n - 1n;

  // RawNumber is a JSON number kept as its digits: an integer beyond
  // JavaScript's exact ones (a seed above 2^53) would reach the API as
  // another integer if it went through a Number.
  class RawNumber { constructor(digits) { this.digits = digits; } }

  // integerValue reads an integer input's text as typed: spelled as JSON
  // writes an integer (digits, a minus allowed, no leading zero: the rule
  // of every place a fault is given, --fault and the config file too),
  // within int64, else it throws naming the field.
  function integerValue(name, v) {
    if (!/^-?(0|[1-9]\d*)$/.test(v)) {
      throw new Error(name + ' ' + v + ': not an integer as JSON writes one, which the admin API refuses; want plain decimal digits, with a minus at most, such as 42');
    }
    const n = BigInt(v);
    if (n < int64Min || n > int64Max) {
      throw new Error(name + ' ' + v + ': out of range; want an integer from ' + int64Min + ' to ' + int64Max);
    }
    return new RawNumber(n.toString());
  }

  // faultJSON writes the object faultObject made as JSON, its RawNumbers
  // as their digits.
  function faultJSON(v) {
    if (v instanceof RawNumber) return v.digits;
    if (v !== null && typeof v === 'object') {
      return '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ':' + faultJSON(x)).join(',') + '}';
    }
    return JSON.stringify(v);
  }

  // faultObject turns the form into the admin API's JSON form: a dotted
  // name sets a member of a nested object, a checked box is true, a
  // number input gives a number (an integer input, step 1, its digits as
  // typed: see integerValue), an empty input is left out.
  function faultObject(form) {
    const obj = {};
    const set = (path, v) => {
      const names = path.split('.');
      let o = obj;
      for (const n of names.slice(0, -1)) {
        if (typeof o[n] !== 'object' || o[n] === null) o[n] = {};
        o = o[n];
      }
      o[names[names.length - 1]] = v;
    };
    for (const input of form.elements) {
      if (!input.name) continue;
      if (input.type === 'checkbox') {
        if (!input.checked) continue;
        if (input.dataset.object) { if (typeof obj[input.name] !== 'object') obj[input.name] = {}; } else set(input.name, true);
        continue;
      }
      if (input.type === 'number' && input.validity.badInput) throw new Error(input.name + ': not a number');
      // A SOAP fault's text goes as typed, white space at its ends too (the
      // list shows it in quotes so); every other value is trimmed.
      const v = input.name === 'soapFault.text' && input.value.trim() !== '' ? input.value : input.value.trim();
      if (v === '') continue;
      if (input.type === 'number' && input.getAttribute('step') === '1') {
        set(input.name, integerValue(input.name, v));
      } else if (input.type === 'number') {
        // Spelled as JSON writes a number, as integerValue's integers.
        if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(v)) {
          throw new Error(input.name + ' ' + v + ': not a number as JSON writes one, which the admin API refuses; ' +
            'want decimal digits with a minus, a fraction and an exponent at most, such as 0.25');
        }
        const n = Number(v);
        if (!Number.isFinite(n)) throw new Error(input.name + ' ' + v + ': not a number');
        set(input.name, n);
      } else {
        set(input.name, v);
      }
    }
    return obj;
  }

  $('fault-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const form = ev.target;
    setText('fault-error', '');
    let obj;
    try {
      obj = faultObject(form);
    } catch (e) {
      setText('fault-error', e.message);
      return;
    }
    try {
      const added = await call('faults', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: faultJSON(obj) });
      // The form has an input named reset, which hides form.reset.
      HTMLFormElement.prototype.reset.call(form);
      setText('faults-status', 'Added ' + added.id + ': ' + faultText(added) + '.');
    } catch (e) {
      if (e instanceof Unauthorized) { askToken('The mock refused the token.'); return; }
      setText('fault-error', e.message);
      return;
    }
    refreshFaults();
  });

  // --- the data set ----------------------------------------------------

  async function loadData() {
    const ds = info.dataset;
    setText('data-note', ds.atms + ' ATMs, ' + ds.institutions + ' institutions, ' + ds.cities + ' cities, ' +
      ds.provinces + ' provinces: ids to pick test values from (namespace ' + info.namespace + ').');
    const note = $('replay-note');
    note.hidden = !info.replay;
    if (info.replay) {
      note.textContent = 'Replaying cassettes: these are the fixtures --on-miss fixtures answers from, not the cassettes. ' +
        (info.replay.fixturesOnMiss ? 'This mock runs with --on-miss fixtures: calls with no recording are answered from them.'
          : 'This mock does not answer from them: calls with no recording get what --on-miss says.');
    }
    try {
      const [cities, insts] = await Promise.all([call('cities'), call('institutions')]);
      const ctb = $('cities');
      ctb.replaceChildren(...(cities.cities || []).map((c) =>
        el('tr', null, el('td', { class: 'num' }, String(c.id)), el('td', null, c.name), el('td', null, c.province))));
      setText('cities-count', '(' + ctb.rows.length + ')');
      const itb = $('institutions');
      itb.replaceChildren(...(insts.institutions || []).map((i) =>
        el('tr', null, el('td', { class: 'num' }, String(i.id)), el('td', null, i.name), el('td', null, i.kind))));
      setText('institutions-count', '(' + itb.rows.length + ')');
    } catch (e) {
      if (e instanceof Unauthorized) { askToken('The mock refused the token.'); return; }
      setText('data-note', 'Reading the data set: ' + e.message);
    }
  }

  open();
})();
