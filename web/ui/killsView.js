// The Kills view: kills, withdrawals and corrections of the last days, each with every copy it
// reached and where it is stored, and the near-identical captions a person should look at.

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

export function renderKills(main, data) {
  const kills = data.kills ?? [];
  main.replaceChildren(
    h(
      'section',
      { class: 'kills-view', 'aria-labelledby': 'kills-title' },
      h('h1', { id: 'kills-title', text: 'Kills' }),
      h('p', { class: 'muted', text: `Since ${new Date(data.since).toUTCString()}: ${kills.length} kill${kills.length === 1 ? '' : 's'}, withdrawals and corrections.` }),
      kills.length === 0
        ? h('div', { class: 'empty-state' }, h('p', { text: 'No kills in these days.' }))
        : h(
            'ol',
            { class: 'kill-list' },
            kills.map((k) =>
              h(
                'li',
                { class: `kill kill-${k.status}`, dataset: { killId: k.id } },
                h('div', { class: 'kill-head' }, h('strong', { class: 'kill-status', text: k.status.toUpperCase() }), h('span', { text: k.targets.join(', ') }), h('span', { class: 'muted', text: new Date(k.createdAt).toUTCString() })),
                h('p', { class: 'kill-reason', text: k.reason ?? 'no reason given' }),
                h('p', { class: 'muted', title: k.notice.text, text: k.notice.kind === 'manual' ? 'manual kill' : `notice ${k.notice.itemId} (${k.notice.source})` }),
                h('h3', { text: `${k.copies.length} cop${k.copies.length === 1 ? 'y' : 'ies'}` }),
                h('ul', { class: 'kill-copies' }, k.copies.map(copyRow)),
                k.reviewCopies.length ? [h('h3', { text: 'To review (near-identical captions, not killed)' }), h('ul', { class: 'kill-review' }, k.reviewCopies.map(copyRow))] : null,
              ),
            ),
          ),
    ),
  );
}
