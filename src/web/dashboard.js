// Vigil dashboard: the little client code there is. Pages work without it; it adds confirmations,
// auto-submitting filters and live updates of the cameras page (polling a JSON endpoint).
'use strict';

document.addEventListener('submit', (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement && form.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});

for (const form of document.querySelectorAll('form[data-autosubmit]')) {
  for (const select of form.querySelectorAll('select')) select.addEventListener('change', () => form.requestSubmit());
}

const live = document.querySelector('[data-live]');
if (live) {
  const url = live.dataset.live;
  const every = Number(live.dataset.interval || 5000);
  const STATUSES = ['normal', 'anomaly', 'under_review', 'offline', 'config_issue', 'pending_retry', 'no_data'];

  const paint = (card, cam) => {
    const status = cam.status || 'no_data';
    const changed = !card.classList.contains(`status-${status}`);
    for (const s of STATUSES) card.classList.remove(`status-${s}`);
    card.classList.add(`status-${status}`);
    const badge = card.querySelector('[data-role="status"]');
    if (badge) {
      for (const s of STATUSES) badge.classList.remove(`status-${s}`);
      badge.classList.add(`status-${status}`);
      badge.textContent = cam.label;
    }
    for (const cell of card.querySelectorAll('.scores [data-key]')) {
      const key = cell.dataset.key;
      const value = cam.scores[key];
      cell.querySelector('dd').textContent = value === undefined ? '–' : value.toFixed(2);
      cell.classList.toggle('over', key in cam.anomalies);
    }
    const when = card.querySelector('[data-role="last-upload"]');
    if (when) when.textContent = cam.last_upload_text;
    // Signed URLs change on every poll: swap the picture only when there is a new log.
    if (String(cam.log_id ?? '') !== card.dataset.log) {
      card.dataset.log = String(cam.log_id ?? '');
      const thumb = card.querySelector('.thumb');
      if (thumb && cam.thumbnail) {
        let img = thumb.querySelector('img');
        if (!img) {
          thumb.textContent = '';
          img = document.createElement('img');
          img.alt = 'Latest snapshot';
          thumb.appendChild(img);
        }
        img.src = cam.thumbnail;
      }
    }
    if (changed) {
      card.classList.remove('flash');
      void card.offsetWidth;
      card.classList.add('flash');
    }
  };

  const poll = async () => {
    try {
      const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (res.status === 401) return window.location.assign('/login');
      if (!res.ok) return;
      const data = await res.json();
      const known = new Set();
      for (const cam of data.cameras) {
        const card = live.querySelector(`[data-camera="${cam.id}"]`);
        known.add(String(cam.id));
        if (card) paint(card, cam);
      }
      // A camera appeared or left the filter: the grid itself changed, reload it once.
      const shown = [...live.querySelectorAll('[data-camera]')].map((c) => c.dataset.camera);
      if (shown.length !== known.size || shown.some((id) => !known.has(id))) window.location.reload();
    } catch {
      // Offline for a moment: the next poll tries again.
    } finally {
      setTimeout(poll, every);
    }
  };
  setTimeout(poll, every);
}
