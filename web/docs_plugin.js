// The docs (docs/*.md, and README.md as their index) as web pages: `npm start` serves them at
// /docs/ and the static build writes them to docs/ beside the pages, so an author who opens the
// demo can read how to embed it. The Markdown is the subset these files use (headings, paragraphs,
// lists, fenced code, pipe tables, links, images, code spans, bold and italics), rendered here:
// no Markdown package is needed for that, and none is added.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DOCS = join(ROOT, 'docs');

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens.
export function slug(text) {
  return text.toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
}

// A link's target as the pages have it: docs/x.md and x.md -> x.html, README.md -> index.html,
// docs/images/* -> images/*; null for a repository file the site does not carry (LICENSE).
function target(href) {
  if (/^[a-z]+:/i.test(href) || href.startsWith('#')) return href;
  const [path, hash] = href.split('#');
  let out = path.replace(/^(\.\.\/)?(docs\/)?/, '');
  if (out === 'README.md') out = 'index.html';
  else if (out.endsWith('.md')) out = out.replace(/\.md$/, '.html');
  else if (!out.startsWith('images/')) return null;
  return hash ? `${out}#${hash}` : out;
}

function inline(text) {
  // Code spans first (nothing inside them is Markdown), held aside while the rest is read, so that
  // bold and links may span them.
  const codes = [];
  const held = text.replace(/(`+)([\s\S]*?)\1/g, (_, ticks, code) => {
    codes.push(`<code>${escape(code.replace(/\n/g, ' ').trim())}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  return escape(held)
    .replace(/!\[([^\]]*)\]\(([^)\s]+)\)/g, (_, alt, src) => `<img src="${target(src)}" alt="${alt}">`)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, label, href) => (target(href) === null ? label : `<a href="${target(href)}">${label}</a>`))
    .replace(/\*\*(?=\S)([\s\S]+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^\w*])\*([^*\s][^*]*?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/(^|[\s(])_([^_]+)_(?=[\s).,;:]|$)/g, '$1<em>$2</em>')
    .replace(/\\([|*_`\\])/g, '$1')
    .replace(/\u0000(\d+)\u0000/g, (_, k) => codes[Number(k)]);
}

const LIST_ITEM = /^( *)([-*+]|\d+\.) +/;
const FENCE = /^( *)```/;

function tableRow(line) {
  const cells = line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/);
  return cells.map((c) => c.trim());
}

// Markdown blocks (lines) -> HTML. tight: a list item's single paragraph is not wrapped in <p>.
function blocks(lines, { tight = false } = {}) {
  const out = [];
  let i = 0;
  const paragraphs = [];
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim() || /^\s*<!--.*-->\s*$/.test(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const indent = fence[1].length;
      const language = line.trim().slice(3).trim();
      const code = [];
      i += 1;
      while (i < lines.length && !/^\s*```\s*$/.test(lines[i])) code.push(lines[i++].slice(indent));
      i += 1;
      out.push(`<pre><code${language ? ` class="language-${escape(language)}"` : ''}>${escape(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,6}) +(.*)$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      const html = inline(heading[2]);
      out.push(`<h${level} id="${slug(html)}">${html}</h${level}>`);
      i += 1;
      continue;
    }
    if (line.trim().startsWith('|') && /^\s*\|?\s*:?-+/.test(lines[i + 1] ?? '')) {
      const head = tableRow(line);
      const align = tableRow(lines[i + 1]).map((c) => (c.endsWith(':') ? (c.startsWith(':') ? 'center' : 'right') : null));
      i += 2;
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith('|')) rows.push(tableRow(lines[i++]));
      const cell = (tag, text, k) => `<${tag}${align[k] ? ` style="text-align:${align[k]}"` : ''}>${inline(text)}</${tag}>`;
      out.push(`<table><thead><tr>${head.map((c, k) => cell('th', c, k)).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c, k) => cell('td', c, k)).join('')}</tr>`).join('')}</tbody></table>`);
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const base = item[1].length;
      const ordered = /\d/.test(item[2]);
      const items = [];
      let current = null;
      while (i < lines.length) {
        const l = lines[i];
        const m = LIST_ITEM.exec(l);
        if (m && m[1].length === base) {
          current = [l.slice(m[0].length)];
          items.push({ lines: current, width: m[0].length });
        } else if (!l.trim()) {
          // A blank line ends the list unless what follows is indented under it or another item.
          const nextLine = lines[i + 1] ?? '';
          const n = LIST_ITEM.exec(nextLine);
          if (!(n && n[1].length === base) && !(nextLine.length - nextLine.trimStart().length > base && nextLine.trim())) break;
          current.push('');
        } else if (l.length - l.trimStart().length > base) {
          current.push(l);
        } else break;
        i += 1;
      }
      const html = items.map(({ lines: itemLines, width }) => {
        const body = itemLines.map((l, k) => (k === 0 ? l : l.slice(Math.min(width + base, l.length - l.trimStart().length))));
        return `<li>${blocks(body, { tight: true })}</li>`;
      });
      out.push(ordered ? `<ol>${html.join('')}</ol>` : `<ul>${html.join('')}</ul>`);
      continue;
    }
    // A paragraph: up to a blank line or the start of another block.
    const text = [];
    while (i < lines.length && lines[i].trim() && !FENCE.test(lines[i]) && !/^#{1,6} /.test(lines[i]) && !(text.length && LIST_ITEM.test(lines[i]) && /^([-*+]|\d+\.) /.test(lines[i]))) {
      text.push(lines[i].trim());
      i += 1;
    }
    paragraphs.push(out.length);
    out.push(`<p>${inline(text.join('\n'))}</p>`);
  }
  if (tight && out.length >= 1 && paragraphs[0] === 0) out[0] = out[0].replace(/^<p>|<\/p>$/g, '');
  return out.join('\n');
}

export function renderMarkdown(text) {
  return blocks(text.replace(/\r\n/g, '\n').split('\n'));
}

// The docs' file names without .md, in the order of the index.
export function docNames() {
  return readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3)).sort();
}

const STYLE = `
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif; color: #1d2733; background: #fbfcfd; }
nav { padding: 10px 20px; border-bottom: 1px solid #d5dce4; background: #fff; font-size: 14px; }
nav a { margin-right: 12px; white-space: nowrap; color: #2f6fdf; text-decoration: none; }
nav a[aria-current] { color: #1d2733; font-weight: 600; }
main { max-width: 920px; margin: 0 auto; padding: 10px 20px 60px; }
a { color: #2f6fdf; }
code { font: 0.88em ui-monospace, "Liberation Mono", Menlo, monospace; background: #eef1f5; padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: #eef1f5; padding: 10px 12px; border-radius: 5px; overflow-x: auto; }
pre code { background: none; padding: 0; }
table { border-collapse: collapse; margin: 12px 0; font-size: 14px; display: block; overflow-x: auto; }
td code { white-space: nowrap; }
th, td { border: 1px solid #d5dce4; padding: 4px 8px; vertical-align: top; }
th { background: #eef1f5; }
img { max-width: 100%; }
`;

// One doc (name without .md, or 'index' for the README) as a whole HTML page.
export function docPage(name) {
  const file = name === 'index' ? join(ROOT, 'README.md') : join(DOCS, `${name}.md`);
  const body = renderMarkdown(readFileSync(file, 'utf8'));
  const title = /<h1[^>]*>(.*?)<\/h1>/.exec(body)?.[1]?.replace(/<[^>]+>/g, '') ?? name;
  const links = [['index', 'overview'], ...docNames().map((n) => [n, n])]
    .map(([n, label]) => `<a href="${n}.html"${n === name ? ' aria-current="page"' : ''}>${label}</a>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · softbody docs</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>
<body><nav><a href="../index.html">← the demo</a>${links}</nav><main>
${body}
</main></body></html>
`;
}

const TYPES = { '.png': 'image/png', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml' };

export function docsPlugin() {
  return {
    name: 'softbody-docs',
    // npm start: /docs/ and /docs/<name>.html rendered on request, /docs/images/* as they are.
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = decodeURIComponent((req.url ?? '').split('?')[0]);
        const page = /^\/docs\/(?:([\w-]+)\.html)?$/.exec(path);
        const image = /^\/docs\/(images\/[\w.-]+)$/.exec(path);
        if (page && (!page[1] || page[1] === 'index' || docNames().includes(page[1]))) {
          res.setHeader('Content-Type', 'text/html; charset=utf-8');
          res.end(docPage(page[1] ?? 'index'));
        } else if (image && existsSync(join(DOCS, image[1]))) {
          res.setHeader('Content-Type', TYPES[extname(image[1])] ?? 'application/octet-stream');
          res.end(readFileSync(join(DOCS, image[1])));
        } else next();
      });
    },
    // npm run build: the same pages in the site's docs/ folder.
    generateBundle() {
      for (const name of ['index', ...docNames()]) this.emitFile({ type: 'asset', fileName: `docs/${name}.html`, source: docPage(name) });
      for (const file of readdirSync(join(DOCS, 'images'))) this.emitFile({ type: 'asset', fileName: `docs/images/${file}`, source: readFileSync(join(DOCS, 'images', file)) });
    },
  };
}
