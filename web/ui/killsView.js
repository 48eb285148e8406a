// The Kills view: kills, withdrawals and corrections of the last days, each with the copies it
// reached and where they are stored, the near-identical captions a person should look at, and a
// way to lift one sent in error (kept with who, when and why). Large kills are paged.

import { h } from './dom.js';

const copyRow = (c) =>
  h(
    'li',
    { class: 'kill-copy', dataset: { itemId: c.itemId } },
    h('a', { href: c.batchId ? `#/batch/${encodeURIComponent(c.batchId)}` : '#/kills', text: c.itemId }),
    h('span', { class: 'muted', text: ` · batch ${c.batchId ?? '?'}` }),
    c.file ? h('span', { class: 'muted', title: c.file, text: ` · ${c.file.split('/').pop()}` }) : null,
    c.original ? h('code', { class: 'kill-where', text: c.original }) : null,
  );

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The copies of one kill: the first page, and a button that fetches the next ones. */
function copiesList(k, review, actions) {
  const shown = review ? k.reviewCopies : k.copies;
  const total = review ? (k.reviewCount ?? shown.length) : (k.itemCount ?? shown.length);
  const list = h('ul', { class: review ? 'kill-review' : 'kill-copies' }, shown.map(copyRow));
  let after = shown.length ? shown[shown.length - 1].itemId : null;
  let count = shown.length;
  const more = h('button', { type: 'button', class: 'kill-more', text: `Show more (${total - count} left)` });
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const page = await actions.more(k.id, after, review);
      for (const c of page.copies) list.append(copyRow(c));
      count += page.copies.length;
      after = page.next;
      if (!page.next || count >= total) more.remove();
      else more.textContent = `Show more (${total - count} left)`;
    } finally {
      more.disabled = false;
    }
  });
  return [list, count < total && after ? more : null];
}

/** The lift form: a reason, then the kill is lifted and the view reloaded. */
function liftForm(k, actions) {
  const reason = h('input', {
    type: 'text',
    name: 'reason',
    required: true,
    maxlength: 2000,
    placeholder: 'why (kept with the kill)',
    'aria-label': `Reason to lift kill ${k.id}`,
  });
  const status = h('span', { class: 'muted', role: 'status' });
  const form = h(
    'form',
    { class: 'kill-lift' },
    reason,
    h('button', { type: 'submit', text: 'Lift this kill' }),
    status,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!reason.value.trim()) return;
    form.querySelector('button').disabled = true;
    try {
      await actions.lift(k.id, reason.value.trim());
    } catch (err) {
      status.textContent = `Could not lift it: ${err.message}`;
      form.querySelector('button').disabled = false;
    }
  });
  return form;
}

export function renderKills(main, data, actions) {
  const kills = data.kills ?? [];
  const showAll = h(
    'label',
    { class: 'kill-all' },
    h('input', { type: 'checkbox', checked: !!data.all }),
    ' show lifted kills',
  );
  showAll.querySelector('input').addEventListener('change', (e) => actions.reload(e.target.checked));
  main.replaceChildren(
    h(
      'section',
      { class: 'kills-view', 'aria-labelledby': 'kills-title' },
      h('h1', { id: 'kills-title', text: 'Kills' }),
      h(
        'p',
        {
          class: 'muted',
          text: `Since ${new Date(data.since).toUTCString()}: ${plural(kills.length, 'kill', 'kills')}, withdrawals and corrections.`,
        },
        ' ',
        showAll,
      ),
      kills.length === 0
        ? h('div', { class: 'empty-state' }, h('p', { text: 'No kills in these days.' }))
        : h(
            'ol',
            { class: 'kill-list' },
            kills.map((k) => {
              const count = k.itemCount ?? k.copies.length;
              const reviewCount = k.reviewCount ?? k.reviewCopies.length;
              return h(
                'li',
                { class: `kill kill-${k.status}${k.lifted ? ' kill-lifted' : ''}`, dataset: { killId: k.id } },
                h(
                  'div',
                  { class: 'kill-head' },
                  h('strong', {
                    class: 'kill-status',
                    text: k.lifted ? `${k.status.toUpperCase()} · LIFTED` : k.status.toUpperCase(),
                  }),
                  h('span', { text: k.targets.join(', ') }),
                  h('span', { class: 'muted', text: new Date(k.createdAt).toUTCString() }),
                ),
                h('p', { class: 'kill-reason', text: k.reason ?? 'no reason given' }),
                h('p', {
                  class: 'muted',
                  title: k.notice.text,
                  text: `${k.notice.kind === 'manual' ? 'manual kill' : `notice ${k.notice.itemId} (${k.notice.source})`}${k.by ? ` · by ${k.by}` : ''} · id ${k.id}`,
                }),
                k.lifted
                  ? h('p', {
                      class: 'kill-lifted-note',
                      text: `Lifted ${new Date(k.lifted.at).toUTCString()} by ${k.lifted.by}: ${k.lifted.reason}`,
                    })
                  : null,
                h('h3', {
                  text:
                    count === 0
                      ? 'No copies yet: it stands for photos that arrive with this id'
                      : plural(count, 'copy', 'copies'),
                }),
                copiesList(k, false, actions),
                reviewCount
                  ? [
                      h('h3', { text: `To review (near-identical captions, not killed): ${reviewCount}` }),
                      copiesList(k, true, actions),
                    ]
                  : null,
                k.lifted ? null : liftForm(k, actions),
              );
            }),
          ),
    ),
  );
}
