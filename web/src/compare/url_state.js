// The address bar mirrors the comparison: every change rewrites the query (history.replaceState,
// so no history entries pile up), and opening such a URL restores the setup. Writes are coalesced
// (browsers limit replaceState to about 100 calls per 10 s, and a slider drag fires many changes).
import { fromSearchParams, sameSetup, toSearchParams } from './setup.js';
import { findPreset } from './presets.js';

const WRITE_DELAY_MS = 250;

// { setup, notes, preset } from the current URL; preset is the preset named by ?preset= when the
// setup still matches it (the page then shows its story).
export function readUrl(scenes) {
  const params = new URLSearchParams(window.location.search);
  const { setup, notes } = fromSearchParams(params, { scenes });
  const preset = findPreset(params.get('preset') ?? '');
  // A bare ?preset=id (no other setup parameters) opens that preset.
  const hasSetup = [...params.keys()].some((key) => key !== 'preset' && key !== 'test');
  if (preset && !hasSetup) return { setup: preset.setup, notes, preset };
  return { setup, notes, preset: preset && sameSetup(preset.setup, setup) ? preset : null };
}

export class UrlWriter {
  constructor() {
    this.timer = null;
    this.pending = null;
  }

  // Schedules the URL for this setup; preset (or null) is named while the setup matches it.
  write(setup, preset) {
    this.pending = { setup, preset };
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), WRITE_DELAY_MS);
  }

  // Writes a scheduled URL now.
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending) return;
    const { setup, preset } = this.pending;
    this.pending = null;
    const params = toSearchParams(setup, new URLSearchParams(window.location.search));
    if (preset && sameSetup(preset.setup, setup)) params.set('preset', preset.id);
    else params.delete('preset');
    const query = params.toString().replace(/%2C/g, ','); // commas are fine in a query; keep them readable
    window.history.replaceState(null, '', `${window.location.pathname}?${query}${window.location.hash}`);
  }
}
