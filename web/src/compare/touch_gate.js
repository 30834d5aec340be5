// Phones: stacked one per row the views fill most of a narrow page (960 of 1,446 px), so a touch
// that starts on them must be able to scroll it. Until a tap activates the views, a touch pans the
// page and neither grabs nor orbits; a press anywhere else gives touches back to the page. A
// mouse grabs and orbits at once, as before (a mouse drag never scrolls).
export function touchGate(canvas) {
  let active = false;
  const set = (on) => {
    active = on;
    canvas.style.touchAction = on ? 'none' : 'manipulation';
    canvas.classList.toggle('is-active', on);
  };
  // Capture at the target runs before the grabber's and the orbit controls' own listeners.
  canvas.addEventListener('pointerdown', (e) => {
    if (!active && e.pointerType === 'touch') e.stopImmediatePropagation();
  }, { capture: true });
  canvas.addEventListener('click', () => set(true)); // a tap (or a click)
  document.addEventListener('pointerdown', (e) => {
    if (e.target !== canvas) set(false);
  }, true);
  set(false);
  return {
    get active() {
      return active;
    },
  };
}
