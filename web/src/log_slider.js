// A lil-gui slider for values that span orders of magnitude: the slider moves log10 of the value,
// the number field shows the real value (read-only: typing an exponent there would be confusing).
// Used by the demo's compliances and the comparison page's stiffness.
//
// lil-gui's own arrow-key and mouse-wheel handlers on the number field compute "number in the field
// + step", and the field here shows the real value, not the exponent: one ArrowDown on 1.0e-4 gave
// exponent 1e-4 - 0.1, clamped to the top of the range (0.1 m/N). Its wheel handler on the slider
// bar reads the exponent correctly but, when deltaY is a whole number (100 per notch in headless
// Chromium), moves deltaY steps per event: ten decades of a 0.1-decade slider. So both are intercepted here: capture-phase listeners on the same
// elements run before lil-gui's (listeners at the target run capture first), move the exponent by
// whole steps, and stop the event there. lil-gui itself is untouched.

// A wheel gesture moves one step per notch: pixel deltas add up until they reach this many pixels
// (a notch is 53-120 px in Chromium, ~48 in Firefox), so a trackpad's stream of small deltas moves
// one step per ~40 px instead of one per event. The first event of a gesture always moves a step,
// so a notch reported as a few pixels (some macOS mice) still does something.
const WHEEL_STEP_PX = 40;
const WHEEL_GESTURE_MS = 250; // a pause this long starts a new gesture
const LINE_PX = 16; // deltaMode 1 (lines) and 2 (pages) in pixels, for the accumulator
const PAGE_PX = 400;

// options: label; min, max, step of the exponent; zeroAtMin: the leftmost position means exactly 0;
// format(value) for the field; get() the value now; set(value) applies it and returns whether it
// was accepted (on false the slider snaps back to get()).
// Returns { controller, setValue(value), update(), nudge(steps) }; setValue takes real values,
// including ones the slider cannot produce (it then calls set directly), for test hooks and presets.
export function addLogSlider(folder, { label, min, max, step, zeroAtMin = false, format, get, set }) {
  const toExponent = (value) => (value > 0 ? Math.min(max, Math.max(min, Math.log10(value))) : min);
  const toValue = (exponent) => (zeroAtMin && exponent <= min ? 0 : 10 ** exponent);
  const proxy = { exponent: toExponent(get()) };
  const controller = folder.add(proxy, 'exponent', min, max, step).name(label);
  controller.$input.readOnly = true;
  const plainDisplay = controller.updateDisplay.bind(controller);
  controller.updateDisplay = () => {
    plainDisplay();
    controller.$input.value = format(get());
    return controller;
  };
  controller.onChange((exponent) => {
    if (!set(toValue(exponent))) proxy.exponent = toExponent(get());
    controller.updateDisplay();
  });
  controller.updateDisplay();

  const update = () => {
    proxy.exponent = toExponent(get());
    controller.updateDisplay();
  };
  const setValue = (value) => {
    const exponent = value > 0 ? Math.log10(value) : value === 0 && zeroAtMin ? min : NaN;
    if (Number.isFinite(exponent)) {
      controller.setValue(exponent);
    } else {
      set(value); // negative, NaN or 0 without zeroAtMin: only reachable from code; set reports it
      update();
    }
  };

  // Moves the exponent by `steps` slider steps from the value the body holds now, onto the
  // slider's grid (counted from min, as lil-gui's own snapping does) and into [min, max]. With
  // zeroAtMin, min is exactly 0, so stepping down from the lowest nonzero value gives 0 and
  // stepping up from 0 gives 10^(min + step).
  const nudge = (steps) => {
    const from = toExponent(get());
    const onGrid = min + Math.round((from + steps * step - min) / step) * step;
    const to = Math.min(max, Math.max(min, Number(onGrid.toPrecision(12))));
    if (to !== from) controller.setValue(to);
  };

  const stop = (event) => {
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  controller.$input.addEventListener(
    'keydown',
    (event) => {
      if (event.code !== 'ArrowUp' && event.code !== 'ArrowDown') return; // Enter etc.: lil-gui's
      stop(event);
      nudge((event.code === 'ArrowUp' ? 1 : -1) * (event.shiftKey ? 10 : 1)); // shift: 10 steps, as in lil-gui
    },
    { capture: true },
  );

  let wheelDirection = 0; // +1 or -1 during a gesture
  let wheelSum = 0; // px of the current gesture since its last step
  let wheelLast = -Infinity; // event.timeStamp of the last wheel event, ms
  const onWheel = (event) => {
    const scale = event.deltaMode === 1 ? LINE_PX : event.deltaMode === 2 ? PAGE_PX : 1;
    const delta = (event.deltaX - event.deltaY) * scale; // right or away from you = up, as lil-gui
    if (delta === 0) return;
    stop(event);
    const fresh = event.timeStamp - wheelLast > WHEEL_GESTURE_MS || Math.sign(delta) !== wheelDirection;
    wheelLast = event.timeStamp;
    if (fresh) {
      wheelDirection = Math.sign(delta);
      wheelSum = 0;
      nudge(wheelDirection);
      return;
    }
    wheelSum += Math.abs(delta);
    if (wheelSum >= WHEEL_STEP_PX) {
      wheelSum = 0;
      nudge(wheelDirection);
    }
  };
  // Over the number field the wheel acts only while it has focus (otherwise the panel or page
  // scrolls), as lil-gui decides; over the bar a vertical wheel scrolls the panel when it has a
  // scroll bar, also lil-gui's rule.
  controller.$input.addEventListener(
    'wheel',
    (event) => {
      if (document.activeElement === controller.$input) onWheel(event);
    },
    { capture: true, passive: false },
  );
  controller.$slider?.addEventListener(
    'wheel',
    (event) => {
      const vertical = Math.abs(event.deltaX) < Math.abs(event.deltaY);
      const panel = controller.parent.root.$children;
      if (!(vertical && panel.scrollHeight > panel.clientHeight)) onWheel(event);
    },
    { capture: true, passive: false },
  );

  return { controller, setValue, update, nudge };
}
