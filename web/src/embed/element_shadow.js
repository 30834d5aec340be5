// <soft-body>'s shadow DOM at work (soft_body_element.js installs these on the element's class): input
// and activation (click, focus, touch), the hints, the control bar's handlers, the play button and
// poster, the accessible name, and the messages and events the element sends.
import { SOLVER_LABELS, propertyName } from './attributes.js';
import { KEY_HELP, wireKeys } from './element_keys.js';

const MESSAGE_MS = 9000; // a message stays this long (or until dismissed)
const HINT_MS = 1600;

// Never instantiated: a holder whose methods become SoftBodyElement's, so they read `this` as the element.
class ElementShadow {
  _wire() {
    const p = this._parts;
    p.play.addEventListener('click', (e) => {
      e.stopPropagation(); // the host's click would reveal too
      this.dismissPoster();
      this.play();
    });
    p.messageClose.addEventListener('click', () => (p.message.hidden = true));
    this._keys = wireKeys(this);
    // Activation, as maps embedded in articles do it: until the first click, tap or focus the wheel
    // scrolls the page. A touch swipe that starts on the view may be a page scroll, so only a tap
    // (click) activates on touch.
    this.addEventListener('pointerdown', (e) => {
      if (e.pointerType !== 'touch') this._setActive(true);
    });
    // A touch on an inactive figure scrolls the page (figure_view.js): say how to take hold instead.
    this.addEventListener('pointerdown', (e) => {
      if (e.pointerType === 'touch' && !this._active && this._values.interactive && this._status === 'ready') this._flashHint('tap to grab or turn · swipes scroll the page');
    }, { capture: true });
    this.addEventListener('click', () => {
      if (!this._shown && this._values.reveal === 'interaction') this._revealByReader();
      else this._setActive(true);
    });
    this.addEventListener('keydown', (e) => {
      if (this._shown || this._values.reveal !== 'interaction' || (e.key !== 'Enter' && e.key !== ' ')) return;
      e.preventDefault();
      this._revealByReader();
    });
    this.addEventListener('focusin', () => this._setActive(true));
    this.addEventListener('focusout', (e) => {
      if (!this.contains(e.relatedTarget) && !this.shadowRoot.contains(e.relatedTarget)) this._setActive(false);
    });
    p.canvas.addEventListener('wheel', () => {
      if (!this._active && this._values.interactive && !this._values.disableZoom) this._flashHint('click to zoom · scrolling moves the page');
    }, { passive: true });
    // A grab never scrolls: pointerdown (which starts the grab) comes before touchstart, so the
    // touch can still be claimed here even though touch-action allows vertical panning.
    const claim = (e) => {
      if (this._view?.grabber.dragging && e.cancelable) e.preventDefault();
    };
    p.canvas.addEventListener('touchstart', claim, { passive: false });
    p.canvas.addEventListener('touchmove', claim, { passive: false });
    this._onOutside = (e) => {
      if (!e.composedPath().includes(this)) this._setActive(false);
    };
  }

  _revealByReader() {
    this.dismissPoster();
    this.play();
  }

  // interactive and disable-zoom onto the view; the canvas's name says what the reader can do.
  _applyInteraction() {
    this._view?.setInteraction({ interactive: this._values.interactive, zoom: !this._values.disableZoom });
    if (this._view) this._view.following = this._values.cameraFollow;
    this._syncTabIndex();
    this._describe();
  }

  _setActive(active) {
    if (this._active === active) return;
    this._active = active;
    this._view?.setActive(active);
    this.toggleAttribute('active', active);
    if (active) document.addEventListener('pointerdown', this._onOutside, true);
    else document.removeEventListener('pointerdown', this._onOutside, true);
    if (active) this._parts.hint.classList.remove('shown');
  }

  _flashHint(text) {
    this._parts.hint.textContent = text;
    this._parts.hint.classList.add('shown');
    clearTimeout(this._hintTimer);
    this._hintTimer = setTimeout(() => this._parts.hint.classList.remove('shown'), HINT_MS);
  }

  _controlHandlers() {
    return {
      playPause: () => (this._playing ? this.pause() : this.play()),
      reset: () => this.reset(),
      set: (name, value) => this.setParam(name, value),
      get: (name) => {
        const key = propertyName(name);
        if (key === 'stiffness' && this._values.stiffness === null) return this._values.edgeCompliance > 0 ? 1 / this._values.edgeCompliance : 1e6;
        if (key === 'volumeCompliance' && this._values.volumeCompliance === null) return this._figure?.lanes[0]?.body.getParam('volumeCompliance') ?? 0;
        if (key === 'pressure' && this._values.pressure === null) return this._figure?.lanes[0]?.body.getParam('pressure') ?? 0;
        return this._values[key];
      },
    };
  }

  _syncPlay() {
    this._controls.sync(!this._playing);
    const play = this._parts.play;
    if (!this._shown) {
      // reveal="interaction": the button loads and plays; "manual": the page decides.
      play.hidden = this._values.reveal !== 'interaction' || this._status === 'failed';
      play.setAttribute('aria-label', 'load and play the simulation');
      this._parts.bar.hidden = true;
      return;
    }
    this._parts.bar.hidden = this._values.controls === 'none' || this._status === 'failed';
    play.setAttribute('aria-label', 'play');
    const showBig = !this._playing && this._status === 'ready' && (!this._everPlayed || this._values.controls === 'none');
    play.hidden = !showBig;
  }

  _showPoster() {
    const { poster } = this._parts;
    const url = this._values.poster;
    poster.hidden = !url;
    if (url && poster.getAttribute('src') !== url) poster.src = url;
  }

  // What a screen reader hears: the host is a figure named by alt (or by what it simulates), the
  // canvas an image saying the same and what the reader can do with it.
  _describe() {
    const v = this._values;
    const what = v.src ? this._rt?.fileNameOf(this._rt.srcUrls(v.src)[0]) ?? 'a mesh' : v.scene;
    const how = v.compare ? `side by side under ${v.compare.map((s) => SOLVER_LABELS[s]).join(', ')}` : `under ${SOLVER_LABELS[v.solver]}`;
    const name = v.alt ?? `soft-body simulation: a ${what} ${how}`;
    if (this._internals) this._internals.ariaLabel = name;
    const use = v.interactive ? ` Drag the body to grab and throw it; drag elsewhere to orbit. ${KEY_HELP}` : '';
    const canvas = this._parts.canvas;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${name}.${use}`);
  }

  // Shows a message inside the element (the C API's text when it comes from there), logs it once
  // to the console, and fires an error event.
  _report(error, attribute = null, { fatal = false } = {}) {
    const message = String(error?.message ?? error);
    const p = this._parts;
    p.messageText.textContent = message;
    p.message.hidden = false;
    clearTimeout(this._messageTimer);
    this._messageTimer = setTimeout(() => (p.message.hidden = true), MESSAGE_MS);
    if (!this._warned.has(message)) {
      this._warned.add(message);
      console.warn(`<soft-body>: ${message}`);
    }
    this._emit('error', { message, code: error?.code ?? null, codeName: error?.codeName ?? null, attribute, fatal });
  }

  // Puts an attribute back to text (null: removed) without treating it as a change.
  _revert(name, text) {
    this._reverting = true;
    try {
      if (text === null) this.removeAttribute(name);
      else this.setAttribute(name, text);
    } finally {
      this._reverting = false;
    }
  }

  _emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

// Copies the methods onto the element class as its own (non-enumerable, like class methods).
export function addShadowMethods(ElementClass) {
  for (const name of Object.getOwnPropertyNames(ElementShadow.prototype)) {
    if (name !== 'constructor') Object.defineProperty(ElementClass.prototype, name, Object.getOwnPropertyDescriptor(ElementShadow.prototype, name));
  }
}
