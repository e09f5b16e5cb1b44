/**
 * The inspector: one HTML page at `/_fakehands/`, no build step and no network beyond the fake.
 * It shows sandboxes, conversations and start tasks with their live status, the clock, the
 * request journal, the requests that missed (with why) and the faults, polling once a second, and drives the fake through the control
 * API and the public routes only. Everything it shows is set as text, never as HTML.
 */

/** How often the inspector refreshes, in milliseconds. */
export const INSPECTOR_POLL_MS = 1000;

/** The page. */
export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fakehands inspector</title>
<style>
  :root { font: 14px/1.4 system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  body { margin: 0; padding: 16px 20px; }
  header { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; margin-bottom: 12px; }
  h1 { font-size: 18px; margin: 0; }
  h2 { font-size: 15px; margin: 18px 0 6px; }
  section { background: #fff; border: 1px solid #dde1e7; border-radius: 6px; padding: 8px 12px; margin-bottom: 12px; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #eef0f3; font-variant-numeric: tabular-nums; }
  th { font-weight: 600; color: #5a6273; }
  code { font-size: 12px; }
  .status { font-weight: 600; padding: 1px 6px; border-radius: 4px; }
  .RUNNING, .READY { background: #dcf5e3; } .STARTING, .WORKING, .WAITING_FOR_SANDBOX { background: #fff3cd; }
  .PAUSED, .STOPPED { background: #e8eaf0; } .ERROR { background: #fbdada; } .MISSING, .ARCHIVED { background: #eee; }
  button { font: inherit; padding: 2px 8px; margin-right: 4px; cursor: pointer; }
  #banner { display: none; background: #fff3cd; border: 1px solid #e8d49a; padding: 6px 10px; border-radius: 6px; }
  .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
  .scroll { max-height: 230px; overflow: auto; }
  td { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 320px; }
  td.why { white-space: normal; max-width: none; }
</style>
</head>
<body>
<header>
  <h1>fakehands inspector</h1>
  <span>clock: <code data-testid="clock">…</code></span>
  <label>advance <input data-testid="advance-ms" value="2000" size="7"> ms <button data-testid="advance">Advance</button></label>
  <label>API key <input data-testid="api-key" type="password" size="18"> <button data-testid="save-key">Use</button></label>
  <label>reset to <select data-testid="fixture"><option>default</option><option>empty</option></select> <button data-testid="reset">Reset</button></label>
</header>
<div id="banner" data-testid="banner">This fake needs its API key (X-Session-API-Key): enter it above.</div>
<section><h2>Sandboxes</h2><div class="scroll"><table><thead><tr><th>id</th><th>status</th><th>detail</th><th>created</th><th></th></tr></thead><tbody data-testid="sandboxes"></tbody></table></div></section>
<section><h2>Conversations</h2><div class="scroll"><table><thead><tr><th>id</th><th>title</th><th>sandbox</th><th>status</th><th>agent</th><th>repository</th></tr></thead><tbody data-testid="conversations"></tbody></table></div></section>
<section><h2>Events of <code data-testid="events-of">(choose a conversation)</code></h2>
  <div><button data-testid="agent-pause">Pause agent</button><button data-testid="agent-run">Run agent</button><button data-testid="agent-accept">Accept action</button><button data-testid="agent-reject">Reject action</button></div>
  <div class="scroll"><table><thead><tr><th>time</th><th>kind</th><th>source</th><th>what</th></tr></thead><tbody data-testid="events"></tbody></table></div></section>
<section><h2>Start tasks</h2><div class="scroll"><table><thead><tr><th>id</th><th>status</th><th>detail</th><th>updated</th></tr></thead><tbody data-testid="start-tasks"></tbody></table></div></section>
<div class="grid">
  <section><h2>Faults</h2>
    <div><select data-testid="fault-method"><option>*</option><option>GET</option><option>POST</option><option>PATCH</option><option>DELETE</option></select>
    <input data-testid="fault-path" value="/api/v1/sandboxes/search" size="28"> status <input data-testid="fault-status" value="503" size="4">
    <button data-testid="add-fault">Add</button><button data-testid="clear-faults">Clear all</button></div>
    <div class="scroll"><table><thead><tr><th>id</th><th>method</th><th>path</th><th>kind</th><th>left</th></tr></thead><tbody data-testid="faults"></tbody></table></div>
  </section>
  <section><h2>Requests</h2><div class="scroll"><table><thead><tr><th>#</th><th>method</th><th>path</th><th>status</th><th>ms</th></tr></thead><tbody data-testid="requests"></tbody></table></div></section>
</div>
<section><h2>Misses (no route, a method not allowed, a field refused)</h2><div class="scroll"><table><thead><tr><th>#</th><th>method</th><th>path</th><th>status</th><th>why</th></tr></thead><tbody data-testid="misses"></tbody></table></div></section>
<script>
(() => {
  const base = location.pathname.replace(/\\/_fakehands\\/?$/, '');
  const KEY = 'fakehands-inspector-key';
  const $ = (id) => document.querySelector('[data-testid="' + id + '"]');
  const headers = () => {
    const key = sessionStorage.getItem(KEY);
    // Its own requests stay out of the journal, which is the app's.
    const own = { 'content-type': 'application/json', 'x-fakehands-inspector': '1' };
    return key ? { ...own, 'x-session-api-key': key } : own;
  };
  const call = async (method, path, body) => {
    const response = await fetch(base + path, { method, headers: headers(), body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status === 401) $('banner').style.display = 'block';
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  /** A table row of text cells (never HTML), and optional buttons. */
  const row = (cells, buttons = []) => {
    const tr = document.createElement('tr');
    for (const cell of cells) {
      const td = document.createElement('td');
      if (cell && typeof cell === 'object') {
        const span = document.createElement('span');
        span.className = 'status ' + String(cell.status).replace(/[^A-Z_]/g, '');
        span.textContent = String(cell.status);
        td.append(span);
      } else {
        td.textContent = cell === null || cell === undefined ? '' : String(cell);
      }
      tr.append(td);
    }
    const td = document.createElement('td');
    for (const [label, action, testid] of buttons) {
      const button = document.createElement('button');
      button.textContent = label;
      button.dataset.testid = testid;
      button.addEventListener('click', async () => { await action(); await refresh(); });
      td.append(button);
    }
    if (buttons.length) tr.append(td);
    return tr;
  };
  const fill = (id, rows) => $(id).replaceChildren(...rows);
  /** The conversation whose events are shown, with its agent host and key (from the app server's answer). */
  let watched = null;
  /** One line about an event: its state change, command, edit, or message. */
  const what = (e) => e.kind === 'ConversationStateUpdateEvent' ? e.key + ' = ' + (typeof e.value === 'string' ? e.value : (e.value && e.value.execution_status) || '…')
    : e.action ? (e.action.command || '') + ' ' + (e.action.path || '')
      : e.observation ? (e.observation.content || []).map((c) => c.text || '').join(' ').slice(0, 120)
        : e.llm_message ? (e.llm_message.content || []).map((c) => c.text || '').join(' ').slice(0, 120)
          : e.detail || e.error || e.rejection_reason || '';
  /** A call to the watched conversation's agent server, with its sandbox's key. */
  const agent = (path, body) => watched && watched.url ? fetch(watched.url + path, { method: 'POST', headers: { 'x-session-api-key': watched.key, 'content-type': 'application/json', 'x-fakehands-inspector': '1' }, body: JSON.stringify(body || {}) }) : null;
  $('agent-pause').addEventListener('click', async () => { await agent('/pause'); await refresh(); });
  $('agent-run').addEventListener('click', async () => { await agent('/run'); await refresh(); });
  $('agent-accept').addEventListener('click', async () => { await agent('/events/respond_to_confirmation', { accept: true }); await refresh(); });
  $('agent-reject').addEventListener('click', async () => { await agent('/events/respond_to_confirmation', { accept: false, reason: 'Rejected from the inspector' }); await refresh(); });
  const short = (id) => String(id).slice(0, 28);
  async function refresh() {
    const [clock, sandboxes, conversations, tasks, faults, requests, misses] = await Promise.all([
      call('GET', '/_fakehands/clock'), call('GET', '/api/v1/sandboxes/search?limit=100'),
      call('GET', '/api/v1/app-conversations/search?limit=100&include_sub_conversations=true'),
      call('GET', '/api/v1/app-conversations/start-tasks/search?limit=50'), call('GET', '/_fakehands/faults'), call('GET', '/_fakehands/journal?limit=25'),
      call('GET', '/_fakehands/journal?misses=true&limit=25'),
    ]);
    if (clock.status === 200) { $('clock').textContent = clock.body.now; $('banner').style.display = 'none'; }
    if (sandboxes.status === 200) fill('sandboxes', sandboxes.body.items.map((s) => row([s.id, { status: s.status }, s.status_detail, s.created_at.slice(0, 19).replace('T', ' ')], [
      ['Pause', () => call('POST', '/api/v1/sandboxes/' + encodeURIComponent(s.id) + '/pause'), 'pause-' + s.id],
      ['Resume', () => call('POST', '/api/v1/sandboxes/' + encodeURIComponent(s.id) + '/resume'), 'resume-' + s.id],
      ['Fail', () => call('POST', '/_fakehands/sandboxes/' + encodeURIComponent(s.id) + '/fail', {}), 'fail-' + s.id],
      ['Delete', () => call('DELETE', '/api/v1/sandboxes/' + encodeURIComponent(s.id) + '?sandbox_id=' + encodeURIComponent(s.id)), 'delete-' + s.id],
    ])));
    if (conversations.status === 200) fill('conversations', conversations.body.items.map((c) => row([short(c.id), c.title, short(c.sandbox_id), { status: c.sandbox_status }, c.execution_status, c.selected_repository], [
      ['Events', () => { watched = { id: c.id, url: c.conversation_url, key: c.session_api_key }; $('events-of').textContent = c.id; }, 'events-' + c.id],
    ])));
    if (watched && conversations.status === 200) {
      const current = conversations.body.items.find((c) => c.id === watched.id);
      if (current) watched = { id: current.id, url: current.conversation_url, key: current.session_api_key };
      const events = await call('GET', '/api/v1/conversation/' + encodeURIComponent(watched.id) + '/events/search?limit=100&sort_order=TIMESTAMP_DESC');
      if (events.status === 200) fill('events', events.body.items.map((e) => row([String(e.timestamp).slice(11, 19), e.kind, e.source, what(e)])));
    }
    if (tasks.status === 200) fill('start-tasks', tasks.body.items.map((t) => row([short(t.id), { status: t.status }, t.detail, t.updated_at])));
    if (faults.status === 200) fill('faults', faults.body.faults.map((f) => row([f.id, f.method, f.path, f.kind + (f.status ? ' ' + f.status : ''), f.remaining === null ? 'sticky' : f.remaining])));
    if (requests.status === 200) fill('requests', requests.body.requests.slice().reverse().map((r) => row([r.seq, r.method, r.path + r.query, r.status, r.duration_ms])));
    // Why each missed (the nearest routes, the methods allowed, the fields refused), wrapped rather than cut.
    if (misses.status === 200) fill('misses', misses.body.requests.slice().reverse().map((r) => {
      const tr = row([r.seq, r.method, r.path + r.query, r.status, r.miss]);
      tr.lastChild.className = 'why';
      return tr;
    }));
  }
  $('save-key').addEventListener('click', () => { sessionStorage.setItem(KEY, $('api-key').value); void refresh(); });
  $('advance').addEventListener('click', async () => { await call('POST', '/_fakehands/clock', { advance_ms: Number($('advance-ms').value) }); await refresh(); });
  $('reset').addEventListener('click', async () => { await call('POST', '/_fakehands/reset', { fixture: $('fixture').value }); await refresh(); });
  $('add-fault').addEventListener('click', async () => {
    await call('POST', '/_fakehands/faults', { kind: 'status', method: $('fault-method').value, path: $('fault-path').value, status: Number($('fault-status').value), sticky: true });
    await refresh();
  });
  $('clear-faults').addEventListener('click', async () => { await call('DELETE', '/_fakehands/faults'); await refresh(); });
  void refresh();
  setInterval(() => void refresh(), ${INSPECTOR_POLL_MS});
})();
</script>
</body>
</html>
`;
