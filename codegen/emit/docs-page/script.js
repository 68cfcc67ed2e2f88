// The docs page's script (inlined by codegen/emit/docs-page, allowed by its hash in the page's CSP): the
// search box, anchors revealed, the table of contents on a phone, copy buttons and the try-it panel.
(() => {
  // biome-ignore lint/suspicious/noRedundantUseStrict: the page runs this as a classic script, not as a module
  'use strict';
  const q = document.getElementById('q');
  const count = document.getElementById('count');
  const nomatch = document.getElementById('nomatch');
  const toc = document.getElementById('toc-box');
  const all = (root, selector) => Array.prototype.slice.call(root.querySelectorAll(selector));
  const lower = (e) => e.textContent.toLowerCase();
  const links = {};
  all(document, '#toc a[href^="#"]').forEach((a) => {
    links[a.getAttribute('href').slice(1)] = a.parentNode;
  });
  const guides = all(document, 'section.guide').map((g) => {
    const title = g.querySelector('h1, h2');
    return {
      el: g,
      head: title ? lower(title) : '',
      items: all(g, ':scope > p, :scope > ul > li, :scope > pre, :scope > .scroll tbody tr').map((e) => ({ el: e, text: lower(e) })),
    };
  });
  const domains = all(document, 'section.domain');
  const cards = all(document, 'article.res').map((card) => ({
    el: card,
    head: all(card, '.head').map(lower).join(' '),
    blocks: all(card, '.rows').map((block) => ({ el: block, rows: all(block, 'tbody tr').map((tr) => ({ el: tr, text: lower(tr) })) })),
    examples: all(card, '.ex'),
  }));
  const has = (text, words) => words.every((w) => text.indexOf(w) >= 0);

  function apply() {
    const words = q.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    let guideShown = 0;
    cards.forEach((card) => {
      const whole = has(card.head, words);
      let visible = whole;
      card.blocks.forEach((block) => {
        let any = false;
        block.rows.forEach((row) => {
          const hit = whole || has(`${card.head} ${row.text}`, words);
          row.el.hidden = !hit;
          any = any || hit;
        });
        block.el.hidden = !any && !whole;
        visible = visible || any;
      });
      card.examples.forEach((e) => {
        e.hidden = !whole;
      });
      card.el.hidden = !visible;
      if (links[card.el.id]) links[card.el.id].hidden = !visible;
      if (visible) shown += 1;
    });
    domains.forEach((d) => {
      const visible = d.querySelector('article.res:not([hidden])') !== null;
      d.hidden = !visible;
      if (links[d.id]) links[d.id].hidden = !visible;
    });
    guides.forEach((g) => {
      const whole = has(g.head, words);
      let any = false;
      g.items.forEach((item) => {
        const hit = whole || has(item.text, words);
        item.el.hidden = !hit;
        any = any || hit;
      });
      const visible = whole || any;
      g.el.hidden = !visible;
      if (links[g.el.id]) links[g.el.id].hidden = !visible;
      if (visible) guideShown += 1;
    });
    if (!words.length) count.textContent = '';
    else count.textContent = `${shown} ${shown === 1 ? 'resource' : 'resources'}, ${guideShown} ${guideShown === 1 ? 'guide section' : 'guide sections'}`;
    const none = words.length > 0 && shown === 0 && guideShown === 0;
    nomatch.hidden = !none;
    nomatch.textContent = none
      ? `No match for \u201c${q.value.trim()}\u201d. Search a route (/api/v1/fleet/vehicles), a field, a filter, a parameter (since_id, cursor, fields) or a guide section; Escape clears.`
      : '';
  }

  function reveal() {
    let id;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (_e) {
      return;
    }
    const target = id ? document.getElementById(id) : null;
    if (target?.closest('[hidden]')) {
      q.value = '';
      apply();
      target.scrollIntoView();
    }
  }

  q.addEventListener('input', apply);
  q.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      q.value = '';
      apply();
    }
  });
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (e.key === '/' && t !== q && !(t instanceof HTMLInputElement) && !(t instanceof HTMLTextAreaElement)) {
      e.preventDefault();
      q.focus();
    }
  });
  window.addEventListener('hashchange', reveal);

  const wide = window.matchMedia('(min-width: 64rem)');
  const syncToc = () => {
    toc.open = wide.matches;
  };
  syncToc();
  wide.addEventListener('change', syncToc);
  toc.addEventListener('click', (e) => {
    if (!wide.matches && e.target instanceof HTMLAnchorElement) toc.open = false;
  });

  if (navigator.clipboard && window.isSecureContext) {
    all(document, 'pre.curl').forEach((pre) => {
      const code = pre.querySelector('code');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = 'Copy';
      button.addEventListener('click', () => {
        navigator.clipboard.writeText(code.textContent).then(
          () => {
            button.textContent = 'Copied';
            setTimeout(() => {
              button.textContent = 'Copy';
            }, 1500);
          },
          () => {
            button.textContent = 'Select and copy';
          },
        );
      });
      pre.appendChild(button);
    });
  }

  // Try it: a GET to this gateway with a key that lives in the input's value only (never stored,
  // never in the address bar); the page's CSP (connect-src 'self') lets it go nowhere else.
  const key = document.getElementById('try-key');
  const path = document.getElementById('try-path');
  const send = document.getElementById('try-send');
  const status = document.getElementById('try-status');
  const out = document.getElementById('try-out');
  const answer = document.getElementById('try-answer');
  const headersOut = document.getElementById('try-headers');
  // A data route: a list, its export or a record (resource names may hold '-': fleet/fuel-logs).
  const ROUTE = /^\/api\/v1\/[a-z0-9_]+\/[a-z0-9_-]+(\/[0-9]+|\/export|\/aggregate)?(\?[^#\s]*)?$/;
  const MAX_SHOWN = 60000;
  /** Forgets the previous answer: its status, headers and body. */
  function clearAnswer() {
    answer.hidden = true;
    headersOut.firstChild.textContent = '';
    out.firstChild.textContent = '';
  }
  /** The body as text, at most MAX_SHOWN characters: past that the rest is not read (an export may be large). */
  function readShown(response) {
    if (!response.body) return Promise.resolve({ text: '', cut: false });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    function next() {
      return reader.read().then((chunk) => {
        if (chunk.done) return { text: text + decoder.decode(), cut: false };
        text += decoder.decode(chunk.value, { stream: true });
        if (text.length <= MAX_SHOWN) return next();
        return reader.cancel().then(() => ({ text: text.slice(0, MAX_SHOWN), cut: true }));
      });
    }
    return next();
  }
  function tryIt() {
    const route = path.value.trim();
    const secret = key.value.trim();
    clearAnswer();
    if (!ROUTE.test(route)) {
      status.textContent = 'The path must be a data route: /api/v1/<domain>/<resource>[/<id>, /export or /aggregate][?query].';
      path.focus();
      return;
    }
    if (!secret) {
      status.textContent = 'Paste an API key first.';
      key.focus();
      return;
    }
    // Beside this page (<prefix>/api/docs, with or without a final slash), so it works behind a proxy that adds a prefix.
    const url = new URL(location.pathname.replace(/\/docs\/?$/, '/') + route.slice('/api/'.length), location.origin);
    const started = Date.now();
    send.disabled = true;
    status.textContent = `Sending GET ${route} \u2026`;
    fetch(url.href, {
      headers: { Authorization: `Bearer ${secret}`, Accept: 'application/json' },
      credentials: 'omit',
      cache: 'no-store',
      redirect: 'error',
      referrerPolicy: 'no-referrer',
    })
      .then((response) =>
        readShown(response).then((read) => {
          let shown = read.text;
          if (!read.cut && /json/.test(response.headers.get('Content-Type') || '')) {
            try {
              shown = JSON.stringify(JSON.parse(read.text), null, 2);
            } catch (_e) {
              /* not JSON after all: shown as text */
            }
          }
          if (read.cut) shown += `\n\u2026 (cut: the first ${MAX_SHOWN} characters are shown)`;
          const lines = [];
          response.headers.forEach((value, name) => {
            lines.push(`${name}: ${value}`);
          });
          status.textContent = `${response.status} ${response.statusText} \u00b7 ${Date.now() - started} ms`;
          headersOut.firstChild.textContent = lines.join('\n');
          out.firstChild.textContent = shown;
          answer.hidden = false;
        }),
      )
      .catch((error) => {
        clearAnswer();
        status.textContent = `The request failed: ${error.message}`;
      })
      .then(() => {
        send.disabled = false;
      });
  }
  send.addEventListener('click', tryIt);
  [key, path].forEach((input) => {
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') tryIt();
    });
  });
  all(document, 'button.try').forEach((button) => {
    button.addEventListener('click', () => {
      path.value = button.getAttribute('data-path');
      document.getElementById('try').scrollIntoView();
      (key.value ? send : key).focus();
    });
  });
  // Leaving the page forgets the key, even if the browser keeps the page for going back.
  window.addEventListener('pagehide', () => {
    key.value = '';
  });

  if (q.value) apply();
})();
