// The "copy embed code" dialog of the demo and the comparison page: the current setup as a
// <soft-body> tag and as an iframe, each in a read-only box with its own copy button (the text can
// also be selected by hand where the clipboard is not allowed), and the figure's own options an
// author picks for an article (accessible name, loading, click to load, play-only, zoom, camera).

// The options offered, as attribute values; the snippets leave out those at their defaults.
// reveal="manual" is left out: it needs the page's own script (dismissPoster()).
const OPTIONS_HTML = `
  <fieldset class="embed-options"><legend>Figure options</legend>
    <label>alt (what the figure shows, for screen readers) <input type="text" data-option="alt" placeholder="e.g. a soft ball dropped on the floor"></label>
    <label>loading <select data-option="loading"><option value="lazy">lazy: when scrolled near</option><option value="eager">eager: with the page</option></select></label>
    <label>reveal <select data-option="reveal"><option value="auto">auto: show once drawn</option><option value="interaction">interaction: load and play on click</option></select></label>
    <label><input type="checkbox" data-option="interactive" checked> interactive (grab, orbit, zoom)</label>
    <label><input type="checkbox" data-option="disable-zoom"> disable zoom (the wheel scrolls the page)</label>
    <label><input type="checkbox" data-option="camera-follow" checked> camera follows a thrown body</label>
  </fieldset>`;

// The dialog's options as attributes: { alt, loading, reveal, interactive, 'disable-zoom', 'camera-follow' }.
function chosenOptions(dialog) {
  const options = {};
  for (const input of dialog.querySelectorAll('[data-option]')) {
    const name = input.dataset.option;
    options[name] = input.type === 'checkbox' ? input.checked : input.value.trim() || null;
  }
  return options;
}

function resetOptions(dialog) {
  for (const input of dialog.querySelectorAll('[data-option]')) {
    if (input.type === 'checkbox') input.checked = input.defaultChecked;
    else if (input.tagName === 'SELECT') input.selectedIndex = 0;
    else input.value = '';
  }
}

// make(options): { element, iframe } for the setup with the dialog's figure options (attributes,
// see chosenOptions) added; called again whenever an option changes.
export function showEmbedDialog({ make, note = '' }) {
  let dialog = document.getElementById('embed-dialog');
  if (!dialog) {
    dialog = document.createElement('dialog');
    dialog.id = 'embed-dialog';
    dialog.className = 'embed-dialog';
    dialog.setAttribute('aria-label', 'embed code');
    dialog.innerHTML = `
      <h2>Embed this setup</h2>
      <p class="embed-note"></p>
      ${OPTIONS_HTML}
      <label>As an element (paste into any HTML page: the script loads softbody, three.js included, from this site)<textarea data-snippet="element" readonly rows="3"></textarea></label>
      <button type="button" data-copy="element">copy element</button>
      <label>As an iframe (any page, no script)<textarea data-snippet="iframe" readonly rows="4"></textarea></label>
      <button type="button" data-copy="iframe">copy iframe</button>
      <form method="dialog"><button type="submit">close</button></form>`;
    document.body.append(dialog);
    for (const button of dialog.querySelectorAll('[data-copy]')) {
      button.addEventListener('click', () => {
        const text = dialog.querySelector(`[data-snippet="${button.dataset.copy}"]`).value;
        const label = button.textContent.replace(/ ✓$/, '');
        navigator.clipboard?.writeText(text).then(
          () => (button.textContent = `${label} ✓`),
          () => dialog.querySelector(`[data-snippet="${button.dataset.copy}"]`).select(),
        );
      });
    }
    dialog.querySelector('.embed-options').addEventListener('input', () => fill(dialog));
  }
  dialog._make = make;
  resetOptions(dialog);
  fill(dialog);
  const noteElement = dialog.querySelector('.embed-note');
  noteElement.textContent = note;
  noteElement.hidden = !note;
  if (!dialog.open) dialog.showModal();
  return dialog;
}

// Writes the snippets for the setup and the options chosen now.
function fill(dialog) {
  const { element, iframe } = dialog._make(chosenOptions(dialog));
  dialog.querySelector('[data-snippet="element"]').value = element;
  dialog.querySelector('[data-snippet="iframe"]').value = iframe;
  for (const button of dialog.querySelectorAll('[data-copy]')) button.textContent = `copy ${button.dataset.copy}`;
}

// Where this site serves the iframe page and the element's module, as absolute addresses (a pasted
// snippet runs on someone else's page). The static build emits the element as softbody.js and says
// so through __SOFTBODY_ELEMENT__ (web/vite.config.js); the dev server serves its source module.
/* global __SOFTBODY_ELEMENT__ */
const ELEMENT_MODULE = typeof __SOFTBODY_ELEMENT__ === 'string' ? __SOFTBODY_ELEMENT__ : './src/embed/index.js';
export function embedAddresses() {
  const page = window.location.href;
  return { embedUrl: new URL('./embed.html', page).href, scriptUrl: new URL(ELEMENT_MODULE, page).href };
}
