// The <soft-body> element's shadow DOM: the canvas its views are copied into, the poster, the
// message line, the play button, the progress ring, the per-view labels, the controls bar and the
// plot. Styles live in the shadow root, so an article's CSS cannot break the figure and the
// figure's CSS cannot leak into the article.

const STYLE = `
:host {
  display: block;
  position: relative;
  width: 100%;
  aspect-ratio: 16 / 10;
  min-height: 160px;
  contain: content;
  overflow: hidden;
  border-radius: 6px;
  background: #e6ebf1;
  color: #1d2733;
  font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif;
  -webkit-tap-highlight-color: transparent;
}
:host([hidden]) { display: none; }
/* A figure with a plot is taller by default, so the plot has room on a phone too. */
:host([plot]:not([plot="none"])) { aspect-ratio: 4 / 3.3; }
:host(:focus-visible) { outline: 3px solid #2f6fdf; outline-offset: 2px; }
.frame { position: absolute; inset: 0; display: flex; flex-direction: column; }
.views { position: relative; flex: 1 1 auto; min-height: 0; }
canvas.scene { position: absolute; inset: 0; width: 100%; height: 100%; display: block; outline: none; }
canvas.plot { flex: 0 0 38%; width: 100%; min-height: 0; display: block; background: #f7f9fb; border-top: 1px solid #d5dce4; }
canvas.plot[hidden] { display: none; }
.placeholder {
  position: absolute; inset: 0; pointer-events: none;
  background: linear-gradient(#e6ebf1 0 58%, #dfe4ea 58%);
  display: grid; place-items: center; color: #5d6b7b; transition: opacity 0.3s;
}
.placeholder > div { max-width: 90%; text-align: center; }
.placeholder .alt { margin: 6px 0 0; color: #1d2733; }
.placeholder .alt[hidden] { display: none; }
.poster { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; pointer-events: none; transition: opacity 0.3s; }
.placeholder.gone, .poster.gone { opacity: 0; }
.labels { position: absolute; inset: 0; pointer-events: none; }
.label {
  position: absolute; margin: 6px; padding: 1px 6px; border-radius: 3px; font-weight: 600;
  background: rgb(255 255 255 / 0.78); border-left: 4px solid var(--view-color, #ff5a3c);
}
.label .exploded { display: block; color: #b3261e; font-weight: 700; }
.label .exploded[hidden] { display: none; }
.label .backend { display: block; font-weight: 400; font-size: 0.85em; }
.label .backend[hidden] { display: none; }
.play {
  position: absolute; left: 50%; top: 50%; width: 64px; height: 64px; margin: -32px 0 0 -32px;
  border: 0; border-radius: 50%; background: rgb(29 39 51 / 0.72); color: #fff; font-size: 26px;
  cursor: pointer; display: grid; place-items: center; padding-left: 5px;
}
.play:focus-visible, .bar button:focus-visible, .bar input:focus-visible, .message button:focus-visible { outline: 3px solid #2f6fdf; outline-offset: 2px; }
.play[hidden] { display: none; }
.progress {
  position: absolute; left: 50%; top: 50%; transform: translate(-50%, -50%); text-align: center;
  background: rgb(255 255 255 / 0.85); border-radius: 8px; padding: 10px 14px; pointer-events: none;
}
.progress[hidden] { display: none; }
.progress svg { display: block; margin: 0 auto 4px; }
.progress circle { fill: none; stroke-width: 5; }
.progress .track { stroke: #d5dce4; }
.progress .fill { stroke: #2f6fdf; stroke-linecap: round; transform: rotate(-90deg); transform-origin: 50% 50%; }
.message {
  position: absolute; left: 8px; right: 8px; top: 8px; display: flex; gap: 8px; align-items: start;
  padding: 6px 8px; border-radius: 4px; background: #fff5f4; border-left: 4px solid #b3261e;
  box-shadow: 0 1px 4px rgb(0 0 0 / 0.18); font-size: 12px; overflow-wrap: anywhere;
}
.message[hidden] { display: none; }
.message span { flex: 1; }
.message button { border: 0; background: none; font-size: 16px; line-height: 1; cursor: pointer; color: inherit; }
.hint {
  position: absolute; left: 50%; bottom: 44px; transform: translateX(-50%); pointer-events: none;
  background: rgb(29 39 51 / 0.8); color: #fff; padding: 4px 10px; border-radius: 12px; font-size: 12px;
  opacity: 0; transition: opacity 0.25s; white-space: nowrap;
}
.hint.shown { opacity: 1; }
.bar {
  position: absolute; left: 6px; bottom: 6px; right: 6px; display: flex; flex-wrap: wrap; gap: 4px 10px;
  align-items: center; pointer-events: none;
}
.bar > * { pointer-events: auto; }
.bar[hidden] { display: none; }
.bar button {
  min-width: 32px; height: 28px; border: 1px solid #c3ccd6; border-radius: 4px; background: rgb(255 255 255 / 0.9);
  color: #1d2733; font: inherit; cursor: pointer; padding: 0 8px;
}
.bar label {
  display: flex; align-items: center; gap: 6px; background: rgb(255 255 255 / 0.85); border-radius: 4px;
  padding: 2px 6px; font-size: 12px;
}
.bar input[type=range] { width: 110px; }
.bar output { min-width: 4.5em; font-variant-numeric: tabular-nums; }
`;

const PLAY = '▶';

// Builds the shadow tree; returns the parts the element drives.
export function buildShadow(root) {
  root.innerHTML = `
    <style>${STYLE}</style>
    <div class="frame" part="frame">
      <div class="views">
        <canvas class="scene" part="canvas" tabindex="-1"></canvas>
        <div class="placeholder" part="placeholder"><div><span class="loading-text"></span><p class="alt" hidden></p></div></div>
        <img class="poster" part="poster" alt="" hidden />
        <div class="labels" part="labels"></div>
        <div class="progress" role="progressbar" aria-valuemin="0" aria-valuemax="100" hidden>
          <svg width="44" height="44" viewBox="0 0 44 44" aria-hidden="true">
            <circle class="track" cx="22" cy="22" r="18"></circle>
            <circle class="fill" cx="22" cy="22" r="18" stroke-dasharray="0 113.1"></circle>
          </svg>
          <span class="progress-text"></span>
        </div>
        <button class="play" type="button" aria-label="play" hidden>${PLAY}</button>
        <div class="hint" aria-hidden="true">click to zoom · scrolling moves the page</div>
        <div class="message" role="alert" hidden><span></span><button type="button" aria-label="dismiss">×</button></div>
        <div class="bar" part="controls"></div>
      </div>
      <canvas class="plot" part="plot" role="img" hidden></canvas>
    </div>`;
  const $ = (selector) => root.querySelector(selector);
  return {
    canvas: $('canvas.scene'),
    placeholder: $('.placeholder'),
    loadingText: $('.loading-text'),
    altText: $('.placeholder .alt'),
    poster: $('.poster'),
    labels: $('.labels'),
    progress: $('.progress'),
    progressFill: $('.progress .fill'),
    progressText: $('.progress-text'),
    play: $('.play'),
    hint: $('.hint'),
    message: $('.message'),
    messageText: $('.message span'),
    messageClose: $('.message button'),
    bar: $('.bar'),
    plot: $('canvas.plot'),
  };
}

// Shows the progress ring at fraction in [0, 1] with a label, or hides it (null).
export function setProgress(parts, fraction, label = '') {
  if (fraction === null) {
    parts.progress.hidden = true;
    return;
  }
  const f = Math.min(1, Math.max(0, fraction));
  const circumference = 2 * Math.PI * 18;
  parts.progress.hidden = false;
  parts.progressFill.setAttribute('stroke-dasharray', `${(f * circumference).toFixed(1)} ${circumference.toFixed(1)}`);
  parts.progressText.textContent = `${label} ${Math.round(100 * f)} %`;
  parts.progress.setAttribute('aria-valuenow', String(Math.round(100 * f)));
}
