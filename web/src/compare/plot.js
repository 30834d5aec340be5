// The live plot under the views: total energy and volume ratio against simulated time, one coloured
// line per view, with a legend. Plain canvas 2D: samples go into preallocated ring buffers (one
// shared time buffer, one energy and one volume buffer per view) and the whole plot is redrawn each
// frame from them; nothing is allocated per frame (indexed loops, tick labels cached per tick,
// legend widths measured once per label). A view that exploded stops at a cross; its values no
// longer set the scale, so the others stay readable.

const CAPACITY = 1200; // samples kept: 20 s at 60 steps per second
const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif';
const INK = '#27313d';
const INK_SOFT = '#5d6b7b';
const GRID = 'rgba(39, 49, 61, 0.12)';
const LEGEND_ROW = 16; // px per legend row
const SIDE_BY_SIDE_MIN_WIDTH = 560; // px: narrower plots stack the two panels

// "Nice" tick spacing (1, 2 or 5 times a power of ten) for about `count` ticks over span.
function tickStep(span, count) {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

// An axis: ticks at multiples of a "nice" step, labels made once per tick value and cached, so
// redrawing allocates nothing while the range moves. format(value, step, unit) -> label.
class Axis {
  constructor(format) {
    this.format = format;
    this.step = 0;
    this.unit = 1;
    this.first = 0; // index (value / step) of the first tick
    this.count = 0;
    this.labels = new Map(); // tick index -> label
  }

  // Ticks for [min, max] with about `ticks` of them; unit scales the labels (J or kJ).
  set(min, max, ticks, unit = 1) {
    const step = tickStep(max - min, ticks);
    if (step !== this.step || unit !== this.unit || this.labels.size > 500) {
      this.step = step;
      this.unit = unit;
      this.labels.clear();
    }
    this.fit(min, max);
  }

  // The ticks inside [min, max] at the current step.
  fit(min, max) {
    this.first = Math.ceil(min / this.step - 1e-9);
    this.count = Math.max(0, Math.floor(max / this.step + 1e-9) - this.first + 1);
  }

  value(i) {
    return (this.first + i) * this.step;
  }

  label(i) {
    const key = this.first + i;
    let text = this.labels.get(key);
    if (text === undefined) {
      text = this.format(key * this.step, this.step, this.unit);
      this.labels.set(key, text);
    }
    return text;
  }
}

function decimalsFor(step) {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

export class Plot {
  // panels: which quantities to draw, ['energy', 'volume'] (the comparison page) or one of them.
  constructor(canvas, { panels = ['energy', 'volume'] } = {}) {
    this.canvas = canvas;
    this.panels = panels;
    this.ctx = canvas.getContext('2d');
    this.times = new Float64Array(CAPACITY);
    this.head = 0; // next write position
    this.count = 0;
    this.series = [];
    this.energyAxis = new Axis((v, step, unit) => (v / unit).toFixed(decimalsFor(step / unit))); // J or kJ
    this.volumeAxis = new Axis((v, step) => (100 * v).toFixed(decimalsFor(100 * step)));
    this.timeAxis = new Axis((v, step) => `${v.toFixed(decimalsFor(step))} s`);
    this.width = 0;
    this.height = 0;
    this.ratio = 1;
    new ResizeObserver(() => this._resize()).observe(canvas);
    this._resize();
  }

  _resize() {
    this.ratio = window.devicePixelRatio || 1;
    this.width = this.canvas.clientWidth;
    this.height = this.canvas.clientHeight;
    this.canvas.width = Math.max(1, Math.round(this.width * this.ratio));
    this.canvas.height = Math.max(1, Math.round(this.height * this.ratio));
  }

  // One series per view: [{ label, color }]. Clears the history.
  setSeries(list) {
    this.series = list.map(({ label, color }) => ({
      label,
      labelWidth: 0, // px, measured on the next draw (measureText allocates, so once per label)
      color,
      energy: new Float32Array(CAPACITY),
      volume: new Float32Array(CAPACITY),
      exploded: false,
    }));
    this.clear();
  }

  setLabel(index, label) {
    const s = this.series[index];
    if (!s || s.label === label) return;
    s.label = label;
    s.labelWidth = 0;
  }

  clear() {
    this.head = 0;
    this.count = 0;
    for (const s of this.series) s.exploded = false;
  }

  // A new sample at simulated time t; then sample(i, ...) for every series.
  beginSample(t) {
    this.times[this.head] = t;
    this._slot = this.head;
    this.head = (this.head + 1) % CAPACITY;
    this.count = Math.min(CAPACITY, this.count + 1);
  }

  // energy in J and volume ratio of series i at the current sample; exploded views pass NaN and
  // exploded = true.
  sample(index, energy, volume, exploded) {
    const s = this.series[index];
    s.energy[this._slot] = energy;
    s.volume[this._slot] = volume;
    s.exploded = exploded;
  }

  // Ring position of the k-th oldest sample.
  _at(k) {
    return (this.head - this.count + k + CAPACITY) % CAPACITY;
  }

  // Sets _min and _max to the range of the finite samples of the series that have not exploded (of
  // all, if every one has); _min > _max without samples.
  _range(key) {
    let min = Infinity;
    let max = -Infinity;
    let anyStable = false;
    for (let j = 0; j < this.series.length; j++) anyStable ||= !this.series[j].exploded;
    for (let j = 0; j < this.series.length; j++) {
      const s = this.series[j];
      if (anyStable && s.exploded) continue;
      const values = s[key];
      for (let k = 0; k < this.count; k++) {
        const v = values[this._at(k)];
        if (v < min) min = v; // NaN compares false both ways
        if (v > max) max = v;
      }
    }
    this._min = min;
    this._max = max;
  }

  draw() {
    const { ctx, width, height } = this;
    ctx.setTransform(this.ratio, 0, 0, this.ratio, 0, 0);
    ctx.clearRect(0, 0, width, height);
    ctx.font = FONT;
    const top = this._legend(8, 4) + 6;
    if (width < 40 || height < top + 40) return;

    if (this.panels.length === 1) {
      this._panel(this.panels[0], 0, top, width, height - top);
    } else if (width >= SIDE_BY_SIDE_MIN_WIDTH) {
      const half = width / 2;
      this._panel('energy', 0, top, half, height - top);
      this._panel('volume', half, top, width - half, height - top);
    } else {
      const half = (height - top) / 2;
      this._panel('energy', 0, top, width, half);
      this._panel('volume', 0, top + half, width, height - top - half);
    }
  }

  // Draws the legend from (x, y), wrapping on narrow plots; returns the y below it.
  _legend(x, y) {
    const { ctx } = this;
    ctx.textBaseline = 'middle';
    let cx = x;
    let cy = y + 8;
    for (let j = 0; j < this.series.length; j++) {
      const s = this.series[j];
      if (!s.labelWidth) s.labelWidth = ctx.measureText(s.label).width;
      const w = s.labelWidth + 26;
      if (cx + w > this.width && cx > x) {
        cx = x; // wrap (narrow screens)
        cy += LEGEND_ROW;
      }
      ctx.fillStyle = s.color;
      ctx.fillRect(cx, cy - 1.5, 14, 3);
      ctx.fillStyle = s.exploded ? INK_SOFT : INK;
      ctx.fillText(s.label, cx + 18, cy);
      cx += w;
    }
    return cy + LEGEND_ROW / 2;
  }

  _panel(key, x, y, w, h) {
    const { ctx } = this;
    const left = x + 44; // room for the value labels
    const right = x + w - 10;
    const plotTop = y + 16; // room for the title
    const bottom = y + h - 18; // room for the time labels
    if (right - left < 20 || bottom - plotTop < 20) return;

    const energy = key === 'energy';
    this._range(key);
    let lo = this._min;
    let hi = this._max;
    if (!(lo <= hi)) {
      lo = energy ? 0 : 0.99; // no samples yet
      hi = energy ? 1 : 1.01;
    }
    if (energy) {
      const pad = Math.max(0.02 * (hi - lo), 1e-3 * Math.max(Math.abs(lo), Math.abs(hi)), 1);
      lo -= pad;
      hi += pad;
    } else {
      const mid = (lo + hi) / 2;
      const half = Math.max(0.005, 0.51 * (hi - lo)); // never zoom below +-0.5 %
      lo = mid - half;
      hi = mid + half;
    }
    // Snap the range out to whole ticks: the scale then only moves when a line crosses a tick.
    const axis = energy ? this.energyAxis : this.volumeAxis;
    const ticks = Math.max(2, Math.floor((bottom - plotTop) / 28));
    axis.set(lo, hi, ticks, energy && Math.max(Math.abs(lo), Math.abs(hi)) >= 1000 ? 1000 : 1);
    lo = Math.floor(lo / axis.step + 1e-9) * axis.step;
    hi = Math.ceil(hi / axis.step - 1e-9) * axis.step;
    axis.fit(lo, hi);

    // Time runs from the oldest kept sample; at least 2 s wide so the start is not stretched.
    const t0 = this.count ? this.times[this._at(0)] : 0;
    const t1 = Math.max(this.count ? this.times[this._at(this.count - 1)] : 0, t0 + 2);
    this.timeAxis.set(t0, t1, Math.max(2, Math.floor((right - left) / 70)));

    // The panel's mapping to pixels, read by _px and _py.
    this._t0 = t0;
    this._left = left;
    this._sx = (right - left) / (t1 - t0);
    this._lo = lo;
    this._bottom = bottom;
    this._sy = (bottom - plotTop) / (hi - lo);
    const px = this._px;
    const py = this._py;

    // Title, grid and labels.
    ctx.fillStyle = INK;
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText(energy ? (axis.unit === 1000 ? 'total energy (kJ)' : 'total energy (J)') : 'volume (% of rest)', left, y);
    ctx.strokeStyle = GRID;
    ctx.lineWidth = 1;
    ctx.fillStyle = INK_SOFT;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    ctx.beginPath();
    for (let i = 0; i < axis.count; i++) {
      const yy = Math.round(py(axis.value(i))) + 0.5;
      ctx.moveTo(left, yy);
      ctx.lineTo(right, yy);
      ctx.fillText(axis.label(i), left - 5, yy);
    }
    ctx.stroke();
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (let i = 0; i < this.timeAxis.count; i++) {
      ctx.fillText(this.timeAxis.label(i), px(this.timeAxis.value(i)), bottom + 4);
    }
    ctx.textAlign = 'left';

    // Lines, clipped to the panel: an exploding view leaves through the top edge.
    ctx.save();
    ctx.beginPath();
    ctx.rect(left, plotTop - 1, right - left, bottom - plotTop + 2);
    ctx.clip();
    ctx.lineWidth = 1.6;
    ctx.lineJoin = 'round';
    for (let j = 0; j < this.series.length; j++) {
      const s = this.series[j];
      const values = s[key];
      ctx.strokeStyle = s.color;
      ctx.beginPath();
      let pen = false;
      let lastK = -1;
      for (let k = 0; k < this.count; k++) {
        const i = this._at(k);
        const v = values[i];
        if (!Number.isFinite(v)) {
          pen = false;
          continue;
        }
        const xx = px(this.times[i]);
        const yy = Math.max(-1e4, Math.min(1e4, py(v))); // far off-panel values stay drawable
        if (pen) ctx.lineTo(xx, yy);
        else ctx.moveTo(xx, yy);
        pen = true;
        lastK = k;
      }
      ctx.stroke();
      if (s.exploded && lastK >= 0) {
        // A cross where the view stopped (at the panel's edge if it left the range).
        const i = this._at(lastK);
        const xx = px(this.times[i]);
        const yy = Math.max(plotTop + 4, Math.min(bottom - 4, py(values[i])));
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(xx - 4, yy - 4);
        ctx.lineTo(xx + 4, yy + 4);
        ctx.moveTo(xx + 4, yy - 4);
        ctx.lineTo(xx - 4, yy + 4);
        ctx.stroke();
        ctx.lineWidth = 1.6;
      }
    }
    ctx.restore();
  }

  _px = (t) => this._left + (t - this._t0) * this._sx;
  _py = (v) => this._bottom - (v - this._lo) * this._sy;

  // For the test hook: what each line shows now.
  describe() {
    return this.series.map((s) => {
      let finite = 0;
      for (let k = 0; k < this.count; k++) if (Number.isFinite(s.energy[this._at(k)])) finite++;
      const last = this.count ? this._at(this.count - 1) : -1;
      return {
        label: s.label,
        color: s.color,
        samples: this.count,
        finiteSamples: finite,
        exploded: s.exploded,
        lastEnergy: last >= 0 ? s.energy[last] : null,
        lastVolume: last >= 0 ? s.volume[last] : null,
      };
    });
  }
}
