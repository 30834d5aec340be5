// The "copy embed code" dialog of the demo and the comparison page: the current setup as a
// <soft-body> tag and as an iframe, each in a read-only box with its own copy button (the text can
// also be selected by hand where the clipboard is not allowed).
export function showEmbedDialog({ element, iframe, note = '' }) {
  let dialog = document.getElementById('embed-dialog');
  if (!dialog) {
    dialog = document.createElement('dialog');
    dialog.id = 'embed-dialog';
    dialog.className = 'embed-dialog';
    dialog.setAttribute('aria-label', 'embed code');
    dialog.innerHTML = `
      <h2>Embed this setup</h2>
      <p class="embed-note"></p>
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
  }
  dialog.querySelector('[data-snippet="element"]').value = element;
  dialog.querySelector('[data-snippet="iframe"]').value = iframe;
  for (const button of dialog.querySelectorAll('[data-copy]')) button.textContent = `copy ${button.dataset.copy}`;
  const noteElement = dialog.querySelector('.embed-note');
  noteElement.textContent = note;
  noteElement.hidden = !note;
  if (!dialog.open) dialog.showModal();
  return dialog;
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
