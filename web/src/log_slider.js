// A lil-gui slider for values that span orders of magnitude: the slider moves log10 of the value,
// the number field shows the real value (read-only: typing an exponent there would be confusing).
// Used by the demo's compliances and the comparison page's stiffness.

// options: label; min, max, step of the exponent; zeroAtMin: the leftmost position means exactly 0;
// format(value) for the field; get() the value now; set(value) applies it and returns whether it
// was accepted (on false the slider snaps back to get()).
// Returns { controller, setValue(value), update() }; setValue takes real values, including ones
// the slider cannot produce (it then calls set directly), for test hooks and presets.
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
  return { controller, setValue, update };
}
