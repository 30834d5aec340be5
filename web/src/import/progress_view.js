// The bar shown while a surface is tetrahedralized: what is being made, how far it is, and a
// cancel button. The page underneath keeps running; only the bar takes clicks.
export class ProgressView {
  // element: the #import-progress container from index.html.
  constructor(element) {
    this.element = element;
    this.label = element.querySelector('.import-label');
    this.fill = element.querySelector('.import-fill');
    this.percent = element.querySelector('.import-percent');
    this.onCancel = null;
    element.querySelector('.import-cancel').addEventListener('click', () => this.onCancel?.());
  }

  show(label, onCancel) {
    this.label.textContent = label;
    this.onCancel = onCancel;
    this.set(0);
    this.element.hidden = false;
  }

  // fraction in [0, 1].
  set(fraction) {
    const percent = Math.round(100 * Math.min(Math.max(fraction, 0), 1));
    this.fill.style.width = `${percent}%`;
    this.percent.textContent = `${percent} %`;
    this.element.setAttribute('aria-valuenow', String(percent));
  }

  hide() {
    this.element.hidden = true;
    this.onCancel = null;
  }

  get visible() {
    return !this.element.hidden;
  }
}
