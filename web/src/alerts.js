// What went wrong, shown in the page instead of only the console: error toasts carrying the C
// API's message (dismissable, fading by themselves), warning toasts for results that worked but
// deserve a second look (an imported mesh that is not closed), and the "exploded" label for a
// diverged body.

const TOAST_MS = 8000; // long enough to read a two-line message
const MAX_TOASTS = 3;

export class Alerts {
  constructor(toastContainer, explodedLabel = null) {
    this.container = toastContainer;
    this.explodedLabel = explodedLabel;
    this.messages = []; // every error shown, oldest first (the test hook exposes it)
    this.warnings = []; // every warning shown, oldest first
    this.last = null; // { message, kind, element, count } of the newest toast, to fold repeats
  }

  // Runs fn; a thrown error (usually a SoftbodyError with the C API's message) becomes a toast.
  // Returns whether fn completed.
  guard(fn) {
    try {
      fn();
      return true;
    } catch (error) {
      this.error(error);
      return false;
    }
  }

  // Shows an error (SoftbodyError or any Error); repeats of the newest toast only bump a counter.
  error(error) {
    const message = error?.message ? String(error.message) : String(error);
    this.messages.push(message);
    this._show(message, 'error');
  }

  // Shows a warning: the same toast with an amber edge.
  warn(message) {
    this.warnings.push(message);
    this._show(message, 'warn');
  }

  _show(message, kind) {
    console.warn('softbody:', message); // a warning in the console either way: the page handled it
    if (this.last && this.last.message === message && this.last.kind === kind && this.last.element.isConnected) {
      this.last.count += 1;
      this.last.counter.textContent = `×${this.last.count}`;
      this._arm(this.last.element);
      return;
    }
    const element = document.createElement('div');
    element.className = kind === 'warn' ? 'toast warn' : 'toast';
    element.setAttribute('role', kind === 'warn' ? 'status' : 'alert');
    const text = document.createElement('span');
    text.className = 'toast-text';
    text.textContent = message;
    const counter = document.createElement('span');
    counter.className = 'toast-count';
    const close = document.createElement('button');
    close.className = 'toast-close';
    close.setAttribute('aria-label', 'dismiss');
    close.textContent = '×';
    close.addEventListener('click', () => this._remove(element));
    element.append(text, counter, close);
    this.container.append(element);
    while (this.container.children.length > MAX_TOASTS) this._remove(this.container.firstElementChild);
    this.last = { message, kind, element, counter, count: 1 };
    this._arm(element);
  }

  _arm(element) {
    clearTimeout(element._timer);
    element.classList.remove('fading');
    element._timer = setTimeout(() => {
      element.classList.add('fading'); // CSS fades it out, then it is removed
      element._timer = setTimeout(() => this._remove(element), 600);
    }, TOAST_MS);
  }

  _remove(element) {
    clearTimeout(element._timer);
    element.remove();
  }

  // The page-wide "exploded" label, if the page has one (the comparison page labels each view).
  set exploded(on) {
    if (!this.explodedLabel || this.explodedLabel.hidden === !on) return;
    this.explodedLabel.hidden = !on;
  }
}
