// The one-click choice offered when an import's thin parts would take it over the Mesh folder's max
// tets (issue 26): more tets (the import as sampled, no bound), the thin parts thickened (offset
// outward: the geometry changes, and the import says by how much), or meshed coarser (fewer samples
// across their thickness). A small panel at the top of the page; one choice at a time.

// The buttons, in order: what each re-runs the import with (overrides of the Mesh folder's options).
export const THIN_CHOICES = Object.freeze([
  { key: 'more', label: 'more tets', title: 'import it as it is, above the limit', overrides: { maxTets: 0, thinParts: 'sample' } },
  {
    key: 'thicken',
    label: 'thin parts thickened',
    title: 'offset the thin sheets outward until the limit meshes them two samples across (the shape and its volume change; the import says by how much)',
    overrides: { thinParts: 'thicken' },
  },
  {
    key: 'coarsen',
    label: 'mesh them coarser',
    title: 'sample the thin parts as far apart as the limit allows (the shape is kept, less finely)',
    overrides: { thinParts: 'coarsen' },
  },
  {
    key: 'drop',
    label: 'drop them',
    title: 'remove the parts thinner than the limit can mesh (a handle, a fin); the import says how much volume went',
    overrides: { thinParts: 'drop' },
  },
]);

let open = null; // the panel shown, if any

// Shows `message` with the choices; onChoose(overrides) runs after a click (the panel closes).
// Returns a function that closes it. A new offer replaces the one shown.
export function offerThinChoice(parent, message, onChoose) {
  open?.close();
  const panel = document.createElement('div');
  panel.className = 'thin-choice';
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-label', 'thin parts over the tet limit');
  const text = document.createElement('p');
  text.className = 'thin-choice-text';
  text.textContent = message;
  const buttons = document.createElement('div');
  buttons.className = 'thin-choice-buttons';
  const close = () => {
    panel.remove();
    if (open?.panel === panel) open = null;
  };
  for (const choice of THIN_CHOICES) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.choice = choice.key;
    button.textContent = choice.label;
    button.title = choice.title;
    button.addEventListener('click', () => {
      close();
      onChoose({ ...choice.overrides });
    });
    buttons.append(button);
  }
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.dataset.choice = 'cancel';
  dismiss.className = 'thin-choice-cancel';
  dismiss.textContent = 'cancel';
  dismiss.addEventListener('click', close);
  buttons.append(dismiss);
  panel.append(text, buttons);
  parent.append(panel);
  open = { panel, close };
  return close;
}
