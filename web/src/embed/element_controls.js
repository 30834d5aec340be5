// The element's controls bar: play/pause and reset (controls="minimal", the default), plus one
// slider per attribute named in controls="edge-compliance substeps ...". Native range inputs: they
// are keyboard- and screen-reader-friendly as they are, and a log slider's arrow keys and wheel move
// its exponent by one step, never the shown value.
import { attributeInfo } from './attributes.js';

// 1.0e-4, 5000, 0.25: short forms for the value next to a slider.
export function formatValue(value) {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e5 || abs < 1e-2) return value.toExponential(1).replace('e+', 'e');
  return String(Number(value.toPrecision(3)));
}

// bar: the container; spec: 'none' | 'minimal' | [attribute names]; handlers: { playPause(),
// reset(), set(name, value) -> bool (false: refused, the slider snaps back), get(name) -> value }.
// Returns { sync(paused), update(name) } to show state changed elsewhere.
export function buildControls(bar, spec, handlers) {
  bar.replaceChildren();
  bar.hidden = spec === 'none';
  const sliders = new Map(); // name -> { input, output, toSlider, fromSlider }
  if (spec === 'none') return { sync() {}, update() {}, sliders };

  const play = document.createElement('button');
  play.type = 'button';
  play.className = 'play-pause';
  play.addEventListener('click', () => handlers.playPause());
  const reset = document.createElement('button');
  reset.type = 'button';
  reset.className = 'reset';
  reset.textContent = '↺';
  reset.title = 'reset';
  reset.setAttribute('aria-label', 'reset');
  reset.addEventListener('click', () => handlers.reset());
  bar.append(play, reset);

  for (const name of Array.isArray(spec) ? spec : []) {
    const info = attributeInfo(name);
    const { log = false, min, max, step, zero = false } = info.slider;
    const label = document.createElement('label');
    const text = document.createElement('span');
    text.textContent = info.unit ? `${name} (${info.unit})` : name;
    const input = document.createElement('input');
    input.type = 'range';
    input.min = String(min);
    input.max = String(max);
    input.step = String(step);
    input.setAttribute('aria-label', name);
    const output = document.createElement('output');
    label.append(text, input, output);
    bar.append(label);
    // A log slider holds log10 of the value; its leftmost position means exactly 0 when allowed.
    const toSlider = (value) => (log ? (value > 0 ? Math.min(max, Math.max(min, Math.log10(value))) : min) : value);
    const fromSlider = (position) => (log ? (zero && position <= min ? 0 : 10 ** position) : position);
    const entry = { input, output, toSlider, fromSlider };
    sliders.set(name, entry);
    input.addEventListener('input', () => {
      const value = Number(fromSlider(Number(input.value)).toPrecision(6));
      output.textContent = formatValue(value);
      if (!handlers.set(name, value)) update(name);
    });
  }

  function update(name) {
    const entry = sliders.get(name);
    if (!entry) return;
    const value = handlers.get(name);
    entry.input.value = String(entry.toSlider(value));
    entry.output.textContent = formatValue(value);
    entry.input.setAttribute('aria-valuetext', formatValue(value));
  }
  for (const name of sliders.keys()) update(name);

  return {
    sliders,
    sync(paused) {
      play.textContent = paused ? '▶' : '❚❚';
      play.setAttribute('aria-label', paused ? 'play' : 'pause');
      play.title = paused ? 'play' : 'pause';
    },
    update,
  };
}
