// The desk page: wires the API client, the live batch list, the batch view and the dialogs.

import { ApiClient } from './lib/api.js';
import { plural } from './lib/format.js';
import { BatchList } from './ui/batchList.js';
import { BatchView } from './ui/batchView.js';
import { renderDetails } from './ui/details.js';
import { h } from './ui/dom.js';
import { renderKills } from './ui/killsView.js';
import { renderStory } from './ui/storyView.js';

const $ = (sel) => document.querySelector(sel);
const dialogs = { login: $('#login'), import: $('#import'), details: $('#details') };

const state = {
  days: Number(sessionStorage.getItem('photowire.days') ?? 7),
  batches: [],
  runs: [],
  selectedId: null,
  detail: null,
  records: [],
  /** The offset of the selected batch's next page of records, null when all are loaded. */
  nextOffset: null,
  /** itemId -> failure (code, retrying, retryable) of the selected batch. */
  failureIndex: new Map(),
  loadSeq: 0,
};

const api = new ApiClient({ storage: sessionStorage, onUnauthorized: () => showLogin() });

// ---- images: fetched with the token when they scroll into view ---------------------------
const pendingImages = new WeakMap();
const imageObserver = new IntersectionObserver(
  (entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      imageObserver.unobserve(e.target);
      pendingImages.get(e.target)?.();
    }
  },
  { rootMargin: '400px' },
);

const shownImages = new Map();
function loadImage(img, url, opts = {}) {
  const key = opts.details ? `${url}#details` : url;
  // Seen before: set at once, so a live re-render does not blink.
  if (shownImages.has(key)) {
    img.src = shownImages.get(key);
    return;
  }
  const load = () =>
    api
      .imageUrl(url, { details: opts.details === true })
      .then((src) => {
        shownImages.set(key, src);
        img.src = src;
      })
      .catch(() => {
        img.replaceWith(h('div', { class: 'thumb-placeholder', text: 'Image unavailable' }));
      });
  if (opts.eager) return void load();
  pendingImages.set(img, load);
  imageObserver.observe(img);
}

// ---- toasts --------------------------------------------------------------------------------
// One visible line at the bottom (a retry queued, its outcome) that screen readers also hear.
const toast = h('div', { class: 'toast', id: 'toast', role: 'status', 'aria-live': 'polite', hidden: true });
document.body.append(toast);
let toastTimer = null;
function announce(text, ms = 8000) {
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.hidden = true), ms);
}

// ---- retry ----------------------------------------------------------------------------------
const retrying = new Set();
/** How each retry started from this page ended: shown on its card and announced. */
const outcomes = new Map();
async function retry(path, label) {
  try {
    const { body } = await api.post(path, {});
    for (const id of [...body.retried, ...body.pending]) {
      retrying.add(id);
      outcomes.delete(id);
    }
    const skipped = body.skipped.map((s) => `${s.itemId}: ${s.reason}`);
    announce(
      `${label}: ${plural(body.retried.length, 'item')} queued again${body.pending.length ? `, ${body.pending.length} already queued` : ''}${skipped.length ? `. Not retried: ${skipped.join('; ')}` : ''}`,
      skipped.length ? 15000 : 8000,
    );
    renderBatch();
    scheduleReload(300);
  } catch (err) {
    announce(`Retry failed: ${err.message}`, 15000);
  }
}

/** Failures the feed itself caused (bad line, invalid item, path outside the folder), or whose photo is not there to read, cannot be retried. */
function retryable(record) {
  const f = state.failureIndex?.get(record.id);
  return f ? f.retryable !== false : true;
}

/** Why a retry cannot work now (the server's note: a feed-level failure, or the photo is not where a retry reads it). */
function retryNote(record) {
  return state.failureIndex?.get(record.id)?.retryNote ?? null;
}

const ui = {
  loadImage,
  expanded: new Set(),
  retrying,
  outcomes,
  retryable,
  retryNote,
  /** An archived batch (retention removed it from Redis; read from storage): nothing to retry. */
  readOnly: () => state.detail?.archived === true,
  open: (record) => {
    // A card kept through a reload (nothing it shows changed) holds the record it was built from:
    // the details show the latest read of it.
    const latest = state.records.find((r) => r.id === record.id) ?? record;
    renderDetails($('#details-title'), $('#details-body'), latest, ui);
    dialogs.details.showModal();
  },
  cluster: (id) => api.get(`/api/clusters/${encodeURIComponent(id)}`),
  closeDetails: () => dialogs.details.close(),
  retry: (record) => retry(`/api/items/${encodeURIComponent(record.id)}/retry`, `Retry of ${record.id}`),
  retryAll: (batch) => retry(`/api/batches/${encodeURIComponent(batch.id)}/retry`, 'Retry of the failed items'),
  /** The next page of the selected batch, when the grid's end scrolls into view. */
  loadMore: () => loadMore(),
  /** A search of the selected batch, answered by the server (one search: src/core/search/query.ts). */
  search: (batchId, { q, show, cursor, offset }) =>
    api.recordsPage(batchId, {
      q,
      cursor,
      offset,
      limit: PAGE_SIZE,
      failed: show === 'failed' ? 'true' : undefined,
      lowConfidence: show === 'low' ? 'true' : undefined,
    }),
  toggle: (group) => {
    if (ui.expanded.has(group.key)) ui.expanded.delete(group.key);
    else ui.expanded.add(group.key);
    view.renderGrid();
    document.querySelector(`[data-cluster-id="${CSS.escape(group.clusterId)}"] [aria-expanded]`)?.focus();
  },
};

const list = new BatchList($('#batch-list'));
const view = new BatchView($('#main'), ui);

// ---- live state ------------------------------------------------------------------------------
function setLive(s) {
  const el = $('#live');
  el.dataset.state = s;
  el.querySelector('.live-text').textContent = {
    connecting: 'Connecting…',
    live: 'Live',
    polling: 'Updating every few seconds',
    offline: 'Offline: retrying',
    signedout: 'Signed out',
  }[s];
}

function currentSignature(id) {
  const b = state.batches.find((x) => x.id === id);
  return b ? `${b.state}|${b.ok}|${b.failed}|${b.finishedAt ?? ''}` : null;
}

function applyBatches(data) {
  const before = state.selectedId ? currentSignature(state.selectedId) : null;
  state.batches = data.batches;
  state.runs = data.runs;
  if (!state.selectedId && !location.hash && state.batches.length) {
    history.replaceState(null, '', `#/batch/${encodeURIComponent(state.batches[0].id)}`);
    route();
  }
  list.render({ batches: state.batches, runs: state.runs, selectedId: state.selectedId });
  if (state.selectedId && currentSignature(state.selectedId) !== before)
    scheduleReload(state.detail?.state === 'done' ? 0 : 1000);
}

// At most one reload in flight per interval: a running batch changes every second, and reading
// all its records each time would be waste.
let reloadTimer = null;
function scheduleReload(ms) {
  if (reloadTimer) return;
  reloadTimer = setTimeout(() => {
    reloadTimer = null;
    void loadBatch(state.selectedId, { quiet: true });
  }, ms);
}

let streamAbort = null;
let pollTimer = null;
async function connect() {
  streamAbort?.abort();
  clearInterval(pollTimer);
  const ctrl = new AbortController();
  streamAbort = ctrl;
  setLive('connecting');
  try {
    await api.stream(
      `/api/events?days=${state.days}`,
      (msg) => {
        if (msg.event !== 'batches') return;
        setLive('live');
        applyBatches(JSON.parse(msg.data));
      },
      ctrl.signal,
    );
    if (!ctrl.signal.aborted) throw new Error('the event stream ended');
  } catch (err) {
    if (ctrl.signal.aborted || err.status === 401) return;
    // No stream (a proxy that buffers, a dropped connection): poll, and try the stream again later.
    setLive('polling');
    const poll = async () => {
      try {
        applyBatches(await api.get(`/api/batches?days=${state.days}`));
        setLive('polling');
      } catch (e) {
        if (e.status !== 401) setLive('offline');
      }
    };
    await poll();
    pollTimer = setInterval(poll, 3000);
    setTimeout(() => {
      if (streamAbort === ctrl) void connect();
    }, 15000);
  }
}

// ---- the selected batch -------------------------------------------------------------------------
// A large batch is loaded progressively: its first page at once, the next ones as the
// grid's end scrolls into view (BatchView's sentinel); a reload reads again as many as are shown.
const PAGE_SIZE = 200;
function renderBatch() {
  view.render(state.detail, state.records, { more: state.nextOffset !== null });
}

async function loadPages(id, count) {
  const records = [];
  let offset = 0;
  for (;;) {
    const page = await api.recordsPage(id, {
      offset,
      limit: Math.min(1000, Math.max(PAGE_SIZE, count - records.length)),
    });
    records.push(...page.records);
    offset = page.nextOffset ?? null;
    if (offset === null || records.length >= count) return { records, nextOffset: offset };
  }
}

let loadingMore = null;
function loadMore() {
  const id = state.selectedId;
  if (loadingMore || state.nextOffset === null || !id) return loadingMore;
  const seq = state.loadSeq;
  loadingMore = api
    .recordsPage(id, { offset: state.nextOffset, limit: PAGE_SIZE })
    .then((page) => {
      if (seq !== state.loadSeq || id !== state.selectedId) return;
      state.records = [...state.records, ...page.records];
      state.nextOffset = page.nextOffset ?? null;
      renderBatch();
    })
    .catch((err) => {
      if (err.status !== 401) announce(`Could not load more items: ${err.message}`);
    })
    .finally(() => (loadingMore = null));
  return loadingMore;
}

async function loadBatch(id, { quiet = false } = {}) {
  if (!id) return;
  const seq = ++state.loadSeq;
  if (!quiet) $('#main').setAttribute('aria-busy', 'true');
  try {
    const count = id === state.detail?.id ? state.records.length : 0;
    const [detail, loaded] = await Promise.all([
      api.get(`/api/batches/${encodeURIComponent(id)}`),
      loadPages(id, Math.max(PAGE_SIZE, count)),
    ]);
    if (seq !== state.loadSeq || id !== state.selectedId) return;
    const records = loaded.records;
    // A retry is over when its item is ok again, or has failed again with nothing in flight.
    const inFlight = new Set(detail.failures.filter((f) => f.retrying).map((f) => f.itemId));
    const ended = [];
    for (const itemId of [...retrying]) {
      const r = records.find((x) => x.id === itemId);
      // Not loaded yet (a later page): its failure entry says whether it is still in flight.
      if (!r && detail.failures.some((f) => f.itemId === itemId) && inFlight.has(itemId)) continue;
      if (!r || !r.error || (!inFlight.has(itemId) && detail.state === 'done')) {
        retrying.delete(itemId);
        if (r) {
          outcomes.set(itemId, r.error ? 'failed-again' : 'ok');
          ended.push(r);
        }
      }
    }
    for (const f of inFlight) retrying.add(f);
    if (ended.length) {
      const ok = ended.filter((r) => !r.error).length;
      const again = ended.length - ok;
      announce(
        `Retry finished: ${plural(ok, 'item')} ok${
          again
            ? `, ${again} failed again (${ended
                .filter((r) => r.error)
                .map((r) => r.error.code)
                .join(', ')})`
            : ''
        }`,
      );
    }
    state.failureIndex = new Map(detail.failures.map((f) => [f.itemId, f]));
    state.detail = detail;
    state.records = records;
    state.nextOffset = loaded.nextOffset;
    renderBatch();
  } catch (err) {
    if (seq !== state.loadSeq || err.status === 401) return;
    $('#main').replaceChildren(
      h(
        'div',
        { class: 'empty-state' },
        h('p', { text: err.status === 404 ? `There is no batch ${id}.` : `Could not load the batch: ${err.message}` }),
      ),
    );
  } finally {
    if (seq === state.loadSeq) $('#main').removeAttribute('aria-busy');
  }
}

const killActions = {
  reload: (all) => loadKills(all),
  more: (killId, after, review) =>
    api.get(
      `/api/kills/${encodeURIComponent(killId)}/copies?limit=200${after ? `&after=${encodeURIComponent(after)}` : ''}${review ? '&review=1' : ''}`,
    ),
  lift: async (killId, reason) => {
    await api.post(`/api/kills/${encodeURIComponent(killId)}/lift`, { reason });
    await loadKills(state.killsAll);
  },
};

async function loadKills(all = state.killsAll ?? false) {
  // A batch load still in flight must not draw over the Kills view, nor this one over a batch
  // chosen meanwhile: both take a number from the same sequence and draw only if it is the last.
  const seq = ++state.loadSeq;
  state.killsAll = all;
  const current = () => seq === state.loadSeq && location.hash === '#/kills';
  try {
    const data = await api.get(`/api/kills?since=3d${all ? '&all=1' : ''}`);
    if (current()) renderKills($('#main'), { ...data, all }, killActions);
  } catch (err) {
    if (current() && err.status !== 401)
      $('#main').replaceChildren(
        h('div', { class: 'empty-state' }, h('p', { text: `Could not load the kills: ${err.message}` })),
      );
  }
}

// ---- a story: story -> clusters -> versions ------------------------------------------
async function loadStory(storyId) {
  const seq = ++state.loadSeq;
  const current = () => seq === state.loadSeq && location.hash === `#/story/${encodeURIComponent(storyId)}`;
  try {
    const story = await api.get(`/api/stories/${encodeURIComponent(storyId)}`);
    if (current()) renderStory($('#main'), story, ui);
  } catch (err) {
    if (current() && err.status !== 401)
      $('#main').replaceChildren(
        h('div', { class: 'empty-state' }, h('p', { text: `Could not load the story: ${err.message}` })),
      );
  }
}

function route() {
  // The Kills view: every copy of each kill of the last days and where it is stored.
  if (location.hash === '#/kills') {
    state.selectedId = null;
    list.render({ batches: state.batches, runs: state.runs, selectedId: null });
    return void loadKills();
  }
  const story = /^#\/story\/([0-9a-f]{16})$/.exec(location.hash);
  if (story) {
    state.selectedId = null;
    list.render({ batches: state.batches, runs: state.runs, selectedId: null });
    return void loadStory(story[1]);
  }
  const m = /^#\/batch\/(.+)$/.exec(location.hash);
  const id = m ? decodeURIComponent(m[1]) : null;
  if (id === state.selectedId) return;
  state.selectedId = id;
  list.render({ batches: state.batches, runs: state.runs, selectedId: id });
  if (id) void loadBatch(id);
  else
    $('#main').replaceChildren(
      h('div', { class: 'empty-state' }, h('p', { text: 'Choose a batch, or import a feed.' })),
    );
}

// ---- sign in ----------------------------------------------------------------------------------------
function showLogin(message) {
  streamAbort?.abort();
  clearInterval(pollTimer);
  setLive('signedout');
  $('#login-error').hidden = !message;
  $('#login-error').textContent = message ?? '';
  if (!dialogs.login.open) dialogs.login.showModal();
  $('#login-token').focus();
}

$('#login-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  api.setToken($('#login-token').value.trim());
  try {
    await api.get(`/api/batches?days=1&limit=1`);
  } catch (err) {
    showLogin(err.status === 401 ? 'That token was not accepted.' : `The server did not answer: ${err.message}`);
    return;
  }
  dialogs.login.close();
  $('#sign-out').hidden = false;
  $('#login-token').value = '';
  start();
});
// Without a token the desk is useless: the sign-in dialog cannot be dismissed with Escape.
dialogs.login.addEventListener('cancel', (e) => e.preventDefault());
$('#sign-out').addEventListener('click', () => {
  api.setToken(null);
  $('#sign-out').hidden = true;
  showLogin();
});

// ---- import -------------------------------------------------------------------------------------------
function showOutcomes(feeds) {
  const out = $('#import-result');
  out.replaceChildren(
    ...feeds.map((f) =>
      f.error
        ? h('p', { class: 'is-fail' }, `${f.path}: ${f.error.code}: ${f.error.message}`)
        : h(
            'p',
            {},
            `${f.created ? 'Queued' : 'Already taken'}: `,
            h('a', { href: `#/batch/${encodeURIComponent(f.batchId)}`, text: f.batchId }),
            ` (${plural(f.expected, 'item')})`,
          ),
    ),
  );
  const first = feeds.find((f) => f.batchId);
  if (first) location.hash = `#/batch/${encodeURIComponent(first.batchId)}`;
}

async function submitFeed(form, body) {
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  $('#import-result').textContent = 'Sending…';
  try {
    const res = await api.post('/api/feeds', body);
    showOutcomes(res.body.feeds);
    form.reset();
  } catch (err) {
    $('#import-result').replaceChildren(h('p', { class: 'is-fail', text: err.message }));
  } finally {
    button.disabled = false;
  }
}

$('#upload-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const fd = new FormData();
  for (const f of $('#upload-files').files) fd.append('file', f, f.name);
  void submitFeed(e.target, fd);
});
$('#path-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void submitFeed(e.target, { path: $('#feed-path').value.trim() });
});
$('#import-open').addEventListener('click', () => {
  $('#import-result').replaceChildren();
  dialogs.import.showModal();
});
for (const btn of document.querySelectorAll('dialog [data-close]'))
  btn.addEventListener('click', () => btn.closest('dialog').close());
// A click on the backdrop closes the import and details dialogs.
for (const d of [dialogs.import, dialogs.details]) d.addEventListener('click', (e) => e.target === d && d.close());

// ---- keyboard: "/" focuses the search -------------------------------------------------------------
document.addEventListener('keydown', (e) => {
  if (e.key !== '/' || e.target.closest('input, textarea, select, dialog')) return;
  const search = document.querySelector('#batch-search');
  if (search) {
    e.preventDefault();
    search.focus();
  }
});

$('#days').value = String(state.days);
$('#days').addEventListener('change', () => {
  state.days = Number($('#days').value);
  sessionStorage.setItem('photowire.days', String(state.days));
  void connect();
});

window.addEventListener('hashchange', route);

function start() {
  route();
  void connect();
}

(async () => {
  try {
    await api.get('/api/batches?days=1&limit=1');
    if (api.token) $('#sign-out').hidden = false;
    start();
  } catch (err) {
    if (err.status !== 401) {
      setLive('offline');
      $('#main').replaceChildren(
        h('div', { class: 'empty-state' }, h('p', { text: `The desk's server did not answer: ${err.message}` })),
      );
    }
  }
})();
