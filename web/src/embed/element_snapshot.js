// toBlob() of <soft-body>: one image of what the figure shows, for print and static fallbacks: the
// views' canvas, each view's label (solver, EXPLODED) as drawn over it, and the plot below it when
// one is shown: the figure's box at the views' canvas resolution (device pixels, as drawn).

const LABEL_FONT_PX = 13; // the labels' CSS size (element_dom.js)

// parts: the shadow DOM's parts; labels: the view labels (divs with left/top set). Resolves to a
// Blob of `type` (PNG unless the browser lacks the type, which the returned blob's type shows).
export function snapshot(parts, labels, { type = 'image/png', quality } = {}) {
  const views = parts.canvas;
  const ratio = views.clientWidth > 0 ? views.width / views.clientWidth : 1;
  const box = views.getRootNode().host.getBoundingClientRect(); // the figure, as laid out
  const at = (rect) => [(rect.left - box.left) * ratio, (rect.top - box.top) * ratio];
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(box.width * ratio));
  out.height = Math.max(1, Math.round(box.height * ratio));
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#e6ebf1'; // the figure's background (JPEG has no transparency)
  ctx.fillRect(0, 0, out.width, out.height);
  const viewsRect = views.getBoundingClientRect();
  const [vx, vy] = at(viewsRect);
  ctx.drawImage(views, vx, vy, viewsRect.width * ratio, viewsRect.height * ratio);
  const plot = parts.plot;
  if (!plot.hidden) {
    const rect = plot.getBoundingClientRect();
    const [px, py] = at(rect);
    ctx.fillStyle = '#d5dce4'; // its top border
    ctx.fillRect(px, py, rect.width * ratio, rect.height * ratio);
    ctx.drawImage(plot, px + plot.clientLeft * ratio, py + plot.clientTop * ratio, plot.clientWidth * ratio, plot.clientHeight * ratio);
  }
  ctx.font = `600 ${Math.round(LABEL_FONT_PX * ratio)}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  for (const label of labels) {
    if (label.hidden) continue;
    const lines = [...label.children].filter((c) => !c.hidden && c.textContent).map((c) => ({ text: c.textContent, exploded: c.classList.contains('exploded') }));
    if (!lines.length) continue;
    const x = vx + (parseFloat(label.style.left) || 0) * ratio + 6 * ratio;
    let y = vy + (parseFloat(label.style.top) || 0) * ratio + 6 * ratio;
    const lineHeight = Math.round(LABEL_FONT_PX * 1.35 * ratio);
    const width = Math.max(...lines.map((l) => ctx.measureText(l.text).width)) + 14 * ratio;
    ctx.fillStyle = 'rgb(255 255 255 / 0.78)';
    ctx.fillRect(x, y, width, lines.length * lineHeight + 2 * ratio);
    ctx.fillStyle = label.style.getPropertyValue('--view-color') || '#ff5a3c';
    ctx.fillRect(x, y, 4 * ratio, lines.length * lineHeight + 2 * ratio);
    for (const line of lines) {
      ctx.fillStyle = line.exploded ? '#b3261e' : '#1d2733';
      ctx.fillText(line.text, x + 10 * ratio, y + ratio);
      y += lineHeight;
    }
  }
  return new Promise((resolve, reject) => {
    out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('toBlob(): the browser could not encode the image'))), type, quality);
  });
}
