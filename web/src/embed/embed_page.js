// embed.html: one <soft-body> filling the frame, for sites that allow iframes but not scripts.
//
//   <iframe src="embed.html?scene=ball&edge-compliance=0.001&autoplay" ...></iframe>
//
// URL parameters are exactly the element's attributes (a parameter without a value, like
// "autoplay", is a boolean attribute that is present), plus two of the frame's own:
//   origin=https://a.example https://b.example   commands are taken only from these parent origins
//   asset-origin=https://cdn.example             src and poster may also come from these origins
// Unknown parameters are reported inside the figure. The parent page (and only the parent) can
// drive it with postMessage:
//   frame.contentWindow.postMessage({ softbody: 'play' | 'pause' | 'reset' | 'step', n }, origin)
//   frame.contentWindow.postMessage({ softbody: 'setParam', name: 'substeps', value: 20 }, origin)
// and hears back, at its own origin only, { source: 'softbody', softbody: 'ready' | 'load' |
// 'progress' | 'exploded' | 'error' | 'stats', ...detail }.
//
// Locked down because a frame is a guest on someone else's page: a sibling frame (an ad) must not
// drive it, replies must not reach other windows, a message must not make it fetch any URL (a
// tracking pixel as poster) or block the reader's page building millions of tets.
import { ATTRIBUTE_NAMES, attributeName } from './attributes.js';
import './index.js';

// Detail the frame builds at most: a 24-cell box has 82,944 tets (a quarter second to build on a
// laptop); the element allows 64 (1.57 M tets, ~5 s of a blocked page).
export const MAX_RESOLUTION = 24;
export const MAX_TETS = 150_000; // of a src file, or of what the tetrahedralizer made of it
const FRAME_PARAMS = ['origin', 'asset-origin', 'test']; // test: cheap rendering, read by the element

const figure = document.getElementById('figure');
const params = new URLSearchParams(window.location.search);
// An origin list parameter; an entry that is no URL is reported and left out (origin= then allows
// fewer parents: present but empty, it allows none).
const origins = (name) => (params.get(name) ?? '').split(/[\s,]+/).filter(Boolean).flatMap((o) => {
  try {
    return [new URL(o).origin];
  } catch {
    queueMicrotask(() => figure._report(new Error(`${name}: "${o}" is not an origin (like https://example.org)`), null));
    return [];
  }
});
const allowedParents = origins('origin');
const parentsListed = params.has('origin');
const assetOrigins = [window.location.origin, ...origins('asset-origin')];
figure.maxTets = MAX_TETS;

// What this frame refuses or reduces beyond the element: { value } to set (with a note to show when
// reduced), or { error }.
function screen(name, value) {
  if (name === 'resolution' && Number(value) > MAX_RESOLUTION) {
    return { value: String(MAX_RESOLUTION), note: `resolution=${value} is more than this frame builds; using ${MAX_RESOLUTION} (at most ~83,000 tets)` };
  }
  // max-tets may lower the frame's cap, never lift it (0 or unset means no bound to the element).
  if (name === 'max-tets' && !(Number(value) > 0 && Number(value) <= MAX_TETS)) {
    return { value: String(MAX_TETS), note: `max-tets=${value}: this frame builds at most ${MAX_TETS.toLocaleString('en')} tets; using that` };
  }
  if ((name === 'src' || name === 'poster') && value !== null && String(value).trim() !== '') {
    const text = String(value).trim();
    if (/^data:/i.test(text)) return { error: `${name}: data: URLs are not taken by embed.html; put the file on the figure's site` };
    for (const part of name === 'src' ? text.split(/\s+/) : [text]) {
      let origin = null;
      try {
        origin = new URL(part, window.location.href).origin;
      } catch {
        return { error: `${name}: "${part}" is not a URL` };
      }
      if (!assetOrigins.includes(origin)) {
        return { error: `${name}: ${part} is on another origin; embed.html fetches only from ${window.location.origin} and the origins in its asset-origin parameter` };
      }
    }
  }
  return { value };
}

// Reported through the element (in the figure, and to the parent as an error message) once the
// listeners below are in place.
const report = (text, name) => queueMicrotask(() => figure._report(new Error(text), name));

function apply(name, value) {
  const { value: screened, note, error } = screen(attributeName(name), value);
  if (error) return void report(error, attributeName(name));
  if (note) report(note, attributeName(name));
  return figure.setParam(name, screened);
}

const unknown = [];
for (const [name, value] of params) {
  if (FRAME_PARAMS.includes(name)) continue;
  if (!ATTRIBUTE_NAMES.includes(name)) {
    unknown.push(name);
    continue;
  }
  const { value: screened, note, error } = screen(name, value);
  if (note || error) report(note ?? error, name);
  if (!error) figure.setAttribute(name, screened);
}
if (unknown.length) queueMicrotask(() => figure.setParam(unknown[0], '')); // says "unknown parameter"

// Where replies go: the parent's origin as the browser tells it (ancestorOrigins; the referrer
// elsewhere), then the origin of the parent's own messages. Unknown: nothing is sent.
function knownParentOrigin() {
  if (window.parent === window) return null;
  const referrer = document.referrer ? new URL(document.referrer).origin : null;
  const origin = window.location.ancestorOrigins?.[0] ?? referrer;
  if (!origin || origin === 'null') return null;
  return parentsListed && !allowedParents.includes(origin) ? null : origin;
}
let replyOrigin = knownParentOrigin();
const reply = (message) => {
  if (replyOrigin) window.parent.postMessage({ source: 'softbody', ...message }, replyOrigin);
};
figure.addEventListener('ready', () => reply({ softbody: 'ready', frames: figure.frames }));
// Each build's first frame (scene, src, views, vertices, tets, ms) and the meshing progress
// (fraction, label), so the parent can show its own loading state.
figure.addEventListener('load', (e) => reply({ softbody: 'load', ...e.detail }));
figure.addEventListener('progress', (e) => reply({ softbody: 'progress', ...e.detail }));
figure.addEventListener('exploded', (e) => reply({ softbody: 'exploded', ...e.detail }));
figure.addEventListener('error', (e) => reply({ softbody: 'error', ...e.detail }));

const isValue = (v) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const COMMANDS = {
  play: () => figure.play(),
  pause: () => figure.pause(),
  reset: () => figure.reset(),
  step: ({ n = 1 }) => Number.isInteger(n) && n >= 1 && n <= 10_000 && figure.step(n),
  setParam: ({ name, value }) => typeof name === 'string' && ATTRIBUTE_NAMES.includes(attributeName(name)) && isValue(value) && apply(name, value),
  stats: () => reply({ softbody: 'stats', stats: JSON.parse(JSON.stringify(figure.stats)) }),
};

window.addEventListener('message', (event) => {
  // Only the parent, and only from an allowed origin when the page named some.
  if (window.parent === window || event.source !== window.parent) return;
  if (parentsListed && !allowedParents.includes(event.origin)) return;
  const { data } = event;
  // Anything else is not for us (or malformed): ignored without a word.
  if (!data || typeof data !== 'object' || Array.isArray(data) || typeof data.softbody !== 'string') return;
  if (event.origin !== 'null') replyOrigin = event.origin;
  const command = Object.hasOwn(COMMANDS, data.softbody) ? COMMANDS[data.softbody] : null;
  if (command) command(data);
  else reply({ softbody: 'error', message: `unknown command "${data.softbody}" (${Object.keys(COMMANDS).join(', ')})` });
});

// For the browser tests, as on the other pages.
window.app = {
  figure,
  get replyOrigin() {
    return replyOrigin;
  },
};
