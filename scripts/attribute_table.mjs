// Prints docs/embedding.md's table of <soft-body> attributes from the one table in
// web/src/embed/attributes.js (a node test checks that docs/embedding.md holds exactly this text).
//   node scripts/attribute_table.mjs
import { ATTRIBUTES, formatAttribute } from '../web/src/embed/attributes.js';

function defaultText(a) {
  if (a.default === null) return '–';
  const text = formatAttribute(a.name, a.default);
  return a.kind === 'boolean' ? (a.default ? 'on' : 'off') : `\`${text}\``;
}

export function attributeTable() {
  const rows = ATTRIBUTES.map((a) => {
    const unit = a.unit ?? '';
    const live = { rebuild: 'rebuilds', restart: 'restarts', body: 'live', world: 'live', solver: 'live', element: 'live' }[a.apply];
    const doc = a.doc.replace(/\|/g, '\\|');
    return `| \`${a.name}\` | ${defaultText(a)} | ${unit} | ${live} | ${doc} |`;
  });
  return ['| attribute | default | unit | change | meaning |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(attributeTable());
