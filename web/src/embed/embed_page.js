// embed.html: one <soft-body> filling the frame, for sites that allow iframes but not scripts.
//
//   <iframe src="embed.html?scene=ball&edge-compliance=0.001&autoplay" ...></iframe>
//
// URL parameters are exactly the element's attributes (a parameter without a value, like
// "autoplay", is a boolean attribute that is present). Unknown parameters are reported inside the
// figure. The parent page can drive it with postMessage:
//   frame.contentWindow.postMessage({ softbody: 'play' | 'pause' | 'reset' | 'step', n }, '*')
//   frame.contentWindow.postMessage({ softbody: 'setParam', name: 'substeps', value: 20 }, '*')
// and hears back { softbody: 'ready' | 'exploded' | 'error', ...detail } (exploded: view, solver,
// time, reason; error: message, code, attribute).
import { ATTRIBUTE_NAMES } from './attributes.js';
import './index.js';

const figure = document.getElementById('figure');
const params = new URLSearchParams(window.location.search);
const unknown = [];
for (const [name, value] of params) {
  if (name === 'test') continue; // the pages' cheap-rendering switch, read by the element itself
  if (ATTRIBUTE_NAMES.includes(name)) figure.setAttribute(name, value);
  else unknown.push(name);
}
if (unknown.length) {
  // Reported through the element, so the message shows where the figure is.
  queueMicrotask(() => figure.setParam(unknown[0], ''));
}

// The frame is the whole figure: it starts active (the wheel zooms) only if the parent says so by
// focusing it; otherwise the parent page scrolls as usual.
const reply = (message) => {
  if (window.parent !== window) window.parent.postMessage({ source: 'softbody', ...message }, '*');
};
figure.addEventListener('ready', () => reply({ softbody: 'ready', frames: figure.frames }));
figure.addEventListener('exploded', (e) => reply({ softbody: 'exploded', ...e.detail }));
figure.addEventListener('error', (e) => reply({ softbody: 'error', ...e.detail }));

// Commands carry no secrets and change only this figure, so any parent may send them.
window.addEventListener('message', ({ data }) => {
  if (!data || typeof data !== 'object' || typeof data.softbody !== 'string') return;
  switch (data.softbody) {
    case 'play':
      figure.play();
      break;
    case 'pause':
      figure.pause();
      break;
    case 'reset':
      figure.reset();
      break;
    case 'step':
      figure.step(data.n ?? 1);
      break;
    case 'setParam':
      figure.setParam(String(data.name), data.value);
      break;
    case 'stats':
      reply({ softbody: 'stats', stats: JSON.parse(JSON.stringify(figure.stats)) });
      break;
    default:
      reply({ softbody: 'error', message: `unknown command "${data.softbody}" (play, pause, reset, step, setParam, stats)` });
  }
});

window.app = { figure }; // for the browser tests, as on the other pages
