// What went wrong, shown in the page instead of only the console: error toasts carrying the C
// API's message (dismissable, fading by themselves), warning toasts for results that worked but
// deserve a second look (an imported mesh that is not closed), and the "exploded" label for a
// diverged body.
//
// No message is dropped: the newest MAX_TOASTS show; older ones wait, hidden and without a timer,
// behind a "+N more" button on top of the stack. Clicking it expands the stack into a scrolling
// list of every waiting message (nothing fades while it is open); as shown toasts fade or are
// dismissed, waiting ones move up and start their own time.

const TOAST_MS = 8000; // long enough to read a two-line message
const MAX_TOASTS = 3;

export class Alerts {
  constructor(toastContainer, explodedLabel = null) {
    this.container = toastContainer;
    this.explodedLabel = explodedLabel;
    this.messages = []; // every error shown, oldest first (the test hook exposes it)
    this.warnings = []; // every warning shown, oldest first
    this.last = null; // { message, kind, element, count } of the newest toast, to fold repeats
    this.expanded = false; // the whole stack shown (after a click on "+N more")
    // The "+N more" / "show fewer" button, placed first in the container while needed.
    this.more = document.createElement('button');
    this.more.type = 'button';
    this.more.className = 'toast-more';
    this.more.addEventListener('click', () => {
      this.expanded = !this.expanded;
      this._layout();
    });
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
    this.last = { message, kind, element, counter, count: 1 };
    this._layout();
  }

  // Toast elements, oldest first.
  get _toasts() {
    return [...this.container.children].filter((el) => el !== this.more);
  }

  // Shows the newest MAX_TOASTS (or all while expanded); the others wait hidden, timers stopped, and
  // the "+N more" button counts them. Shown toasts fade after TOAST_MS, except in the expanded list.
  _layout() {
    const toasts = this._toasts;
    const waiting = this.expanded ? 0 : Math.max(0, toasts.length - MAX_TOASTS);
    if (toasts.length <= MAX_TOASTS) this.expanded = false;
    toasts.forEach((element, i) => {
      const shown = i >= waiting;
      element.hidden = !shown;
      if (!shown || this.expanded) this._disarm(element);
      else if (!element._timer) this._arm(element);
    });
    const extra = toasts.length - MAX_TOASTS;
    if (extra > 0) {
      this.more.textContent = this.expanded ? 'show fewer' : `+${extra} more message${extra === 1 ? '' : 's'}`;
      this.more.setAttribute('aria-expanded', String(this.expanded));
      if (this.container.firstElementChild !== this.more) this.container.prepend(this.more);
    } else {
      this.more.remove();
    }
    this.container.classList.toggle('expanded', this.expanded);
  }

  _arm(element) {
    if (this.expanded) return; // an open list is being read: nothing fades
    clearTimeout(element._timer);
    element.classList.remove('fading');
    element._timer = setTimeout(() => {
      element.classList.add('fading'); // CSS fades it out, then it is removed
      element._timer = setTimeout(() => this._remove(element), 600);
    }, TOAST_MS);
  }

  _disarm(element) {
    clearTimeout(element._timer);
    element._timer = null;
    element.classList.remove('fading');
  }

  _remove(element) {
    this._disarm(element);
    element.remove();
    this._layout();
  }

  // The page-wide "exploded" label, if the page has one (the comparison page labels each view).
  set exploded(on) {
    if (!this.explodedLabel || this.explodedLabel.hidden === !on) return;
    this.explodedLabel.hidden = !on;
  }
}
