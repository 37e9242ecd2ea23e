// Vigil dashboard: the little client code there is. Pages work without it; it adds confirmations,
// auto-submitting filters and live updates: server-sent events from /live/events repaint the
// cameras grid and announce new alerts; polling the grid's JSON is the fallback.
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

/** Repaints the grid from `{cameras: [...]}` (the events' and the polled JSON's shape). */
const applyCameras = (data) => {
  if (!live) return;
  const known = new Set();
  for (const cam of data.cameras) {
    const card = live.querySelector(`[data-camera="${cam.id}"]`);
    known.add(String(cam.id));
    if (card) paint(card, cam);
  }
  // A camera appeared or left the filter: the grid itself changed, reload it once.
  const shown = [...live.querySelectorAll('[data-camera]')].map((c) => c.dataset.camera);
  if (shown.length !== known.size || shown.some((id) => !known.has(id))) window.location.reload();
};

/** A line under the header for each new alert, linking to the camera and the alerts page. */
const announce = (alert) => {
  if (window.location.pathname === '/alerts') return window.location.reload();
  const main = document.querySelector('main');
  if (!main) return;
  const line = document.createElement('p');
  line.className = 'notice live-alert';
  line.setAttribute('role', 'status');
  line.append('New alert: ');
  alert.cameras.forEach((cam, i) => {
    if (i > 0) line.append(', ');
    const a = document.createElement('a');
    a.href = cam.href;
    a.textContent = `${cam.name} (${cam.label})`;
    line.append(a);
  });
  line.append(' · ');
  const all = document.createElement('a');
  all.href = '/alerts';
  all.textContent = 'see alerts';
  line.append(all);
  main.prepend(line);
};

/** On the Plates page, a line saying new reads arrived, linking to the page as it is now. */
const announcePlates = () => {
  if (window.location.pathname !== '/plates') return;
  const main = document.querySelector('main');
  if (!main || main.querySelector('.live-plates')) return;
  const line = document.createElement('p');
  line.className = 'notice live-plates';
  line.setAttribute('role', 'status');
  line.append('New plate reads. ');
  const show = document.createElement('a');
  const url = new URL(window.location.href);
  url.searchParams.delete('cursor');
  show.href = url.pathname + url.search;
  show.textContent = 'Show them';
  line.append(show);
  main.prepend(line);
};

let polling = false;
const poll = () => {
  if (!live || polling) return;
  polling = true;
  const every = Number(live.dataset.interval || 5000);
  const tick = async () => {
    try {
      const res = await fetch(live.dataset.live, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (res.status === 401) return window.location.assign('/login');
      if (res.ok) applyCameras(await res.json());
    } catch {
      // Offline for a moment: the next poll tries again.
    } finally {
      setTimeout(tick, every);
    }
  };
  setTimeout(tick, every);
};

const eventsUrl = document.body.dataset.events;
if (eventsUrl && 'EventSource' in window) {
  // The grid's filter rides along, so `cameras` events carry exactly the cards on the page.
  const query = live ? new URL(live.dataset.live, window.location.href).search : '';
  const events = new EventSource(eventsUrl + query);
  events.addEventListener('cameras', (e) => applyCameras(JSON.parse(e.data)));
  events.addEventListener('alert', (e) => announce(JSON.parse(e.data)));
  events.addEventListener('plates', () => announcePlates());
  events.addEventListener('signed-out', () => window.location.assign('/login'));
  // The browser retries dropped streams by itself; a refused one (closed) falls back to polling.
  events.addEventListener('error', () => {
    if (events.readyState === EventSource.CLOSED) poll();
  });
} else {
  poll();
}
