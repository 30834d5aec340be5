// "Copy embed code": the current setup of the demo or the comparison page as a <soft-body> tag and
// as an iframe of embed.html, ready to paste into an article. Plain functions, no DOM, so node
// tests check them.
import { ATTRIBUTES, formatAttribute } from './attributes.js';

// attributes: { name: value } in the element's terms (values as parse would give them). Values
// equal to the default are left out, so snippets stay short and keep tracking the defaults.
export function attributeTexts(attributes) {
  const texts = [];
  for (const a of ATTRIBUTES) {
    if (!(a.name in attributes)) continue;
    const value = attributes[a.name];
    if (value === null || value === undefined) continue;
    const text = formatAttribute(a.name, value);
    // Compared as text, so 1/60 and its 6-digit form count as the same default.
    if (text === formatAttribute(a.name, a.default) && a.name !== 'autoplay') continue;
    texts.push([a.name, text]);
  }
  return texts;
}

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// { element, iframe, url }. embedUrl: the absolute address of embed.html next to the page;
// scriptUrl: the absolute address of the element's module as this site serves it (softbody.js in
// the static build, the source module under the dev server). That module carries three.js and
// finds the wasm beside itself, so the element snippet runs pasted into a blank page, on any origin
// the site allows (CORS). Without scriptUrl the snippet is for an npm project (import 'softbody').
export function embedSnippets(attributes, { embedUrl, scriptUrl = null, title = 'a live soft-body figure' }) {
  const texts = attributeTexts(attributes);
  const tagAttributes = texts.map(([name, text]) => (text === '' ? name : `${name}="${escapeHtml(text)}"`)).join(' ');
  const tag = `<soft-body ${tagAttributes}></soft-body>`;
  const element = scriptUrl ? `<script type="module" src="${escapeHtml(scriptUrl)}"></script>\n${tag}` : `${tag}\n<script type="module">import 'softbody';</script>`;
  // A figure filling its frame loads with the frame: loading="..." is the iframe's own attribute,
  // and alt also names the frame (its title).
  const params = texts.filter(([name]) => name !== 'loading');
  const query = params.map(([name, text]) => (text === '' ? encodeURIComponent(name) : `${encodeURIComponent(name)}=${encodeURIComponent(text)}`)).join('&');
  const url = `${embedUrl}?${query}`;
  const loading = attributes.loading === 'eager' ? '' : ' loading="lazy"';
  const iframe = `<iframe src="${escapeHtml(url)}" width="640" height="400" style="border:0"${loading} title="${escapeHtml(attributes.alt ?? title)}"></iframe>`;
  return { element, iframe, url };
}
