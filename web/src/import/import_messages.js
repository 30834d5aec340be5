// What the page says about an import: a sentence per failure (the C API's code names are for
// developers; its own message is kept after the sentence for the details), warnings that name the
// real cause (an open surface, parts too thin for the sample budget, cavities kept) and the setting that
// would help within the panel's ranges, or that none will, and the one-line summary of a finished
// tetrahedralization.
import { ErrorCode, SoftbodyError, TetraLimits } from '../softbody.js';

// Below this share of the surface's volume in tets, the page warns (the core measures thin parts
// from 95 % down, see kThinVolumeFraction).
const LOST_VOLUME_WARNING = 0.9;

const count = (n) => Number(n).toLocaleString('en-US');
// "1 tet", "2 tets"; "1 vertex", "2 vertices".
const counted = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

const SENTENCES = {
  [ErrorCode.EMPTY_MESH]: 'the surface has no usable triangle: every face repeats a vertex or has no area.',
  [ErrorCode.FLAT_MESH]: 'the surface encloses no volume (it is flat, or its faces cancel out), so there is nothing to fill with tets.',
  [ErrorCode.NO_INSIDE_TETS]: 'no tet ended up inside the surface.', // with stats: noInsideSentence
  [ErrorCode.TOO_LARGE]: `the mesh is too large: at most ${count(TetraLimits.maxVertices)} vertices and ${count(TetraLimits.maxTriangles)} triangles are accepted.`,
  [ErrorCode.NOT_FINITE]: 'the mesh has coordinates that are not finite numbers (NaN or infinity).',
  [ErrorCode.INDEX_OUT_OF_RANGE]: 'a triangle or tet refers to a vertex the mesh does not have.',
  [ErrorCode.DEGENERATE_TET]: 'a tet is flat (zero volume) or uses a vertex twice.',
  [ErrorCode.INVERTED_TET]: 'a tet is inside out (negative volume).',
  [ErrorCode.UNUSED_VERTEX]: 'a vertex belongs to no tet.',
  [ErrorCode.BAD_COUNT]: 'the mesh has no vertices or no triangles.',
  [ErrorCode.LIMIT]: 'the mesh is too large for the memory or the limits of the simulation.',
};

// "31 mm", "1 mm", "0.25 mm": two significant digits.
const mm = (metres) => `${Number((metres * 1000).toPrecision(2))} mm`;

// Thin parts are sampled two points across their thickness at any number of grid cells; only when
// that would take more surface points than the job's budget (which grows with the grid cells, up to
// 150,000) are they sampled coarser.
const MAX_SAMPLES = 150000; // SB_TETRA_MAX_SURFACE_SAMPLES

// A budget of thinSamplesCoarsest may already do: the thin parts sampled as coarsely as still keeps
// their two sides apart (the C message's rule, emscripten/api_tetra.cpp).
function thinAdvice(stats) {
  const over = `sampling them finely enough would take about ${count(stats.thinSamplesNeeded)} surface points, beyond this import's budget of ${count(stats.sampleBudget)}`;
  const enough = Math.min(stats.thinSamplesNeeded, stats.thinSamplesCoarsest || Infinity);
  if (enough <= MAX_SAMPLES) return `${over}; more grid cells raise the budget (up to ${count(MAX_SAMPLES)})`;
  return `${over}, so no setting will mesh them whole: thicken them in a modeller`;
}

// Whether the measured thin parts explain the loss (the core measures them whenever volume is
// lost; they are the cause only when the sample budget held them back).
const thinIsCause = (stats) => stats.thinThickness > 0 && stats.thinSamplesNeeded > 0;

// Why no tet was kept, from the job's stats (SoftbodyError.stats) and the options it ran with:
// the real cause first, then what would help.
function noInsideSentence(stats, options) {
  if (!stats) return SENTENCES[ErrorCode.NO_INSIDE_TETS];
  if (thinIsCause(stats))
    return `no tet fits inside the surface: its thinnest parts are about ${mm(stats.thinThickness)} thick; ${thinAdvice(stats)}.`;
  if (stats.openEdges > 0)
    return `the surface is open (${counted(stats.openEdges, 'open edge')}) and encloses nothing to fill: close its holes in a modeller; no setting will help.`;
  if (stats.delaunayTets === 0) return 'the surface gave too few points to form a single tet: raise grid cells.';
  if (stats.slivers > 0 && options?.minQuality > 0)
    return `every tet inside the surface was below min quality ${options.minQuality}: lower min quality (0 keeps every tet that is not flat).`;
  return SENTENCES[ErrorCode.NO_INSIDE_TETS];
}

// Thin parts at least a grid cell thick are sampled as a solid is: " to about 100 mm (a grid cell)",
// or "" when the stats do not say the cell.
const thickEnough = (stats) => (stats.cellSize > 0 ? ` to about ${mm(stats.cellSize)} (a grid cell)` : '');

// Physics time per frame a body of `tets` would add at `msPerTet` (the page's step time per tet,
// measured on the running scene: options.msPerTet), as " (about 14 ms of physics per frame here)",
// or "" while nothing was measured.
function frameCost(tets, msPerTet) {
  if (!(msPerTet > 0) || !(tets > 0)) return '';
  return ` (about ${Number((tets * msPerTet).toPrecision(2))} ms of physics per frame here)`;
}

// Over the tet budget (createTetra's maxTets), said before anything ran: the estimate, what it
// would cost per frame, and whether thin parts drive it (sampled by their thickness at any
// resolution) or the grid cells do.
function overBudgetSentence(stats, options) {
  // The thin-parts choice was made and could not fit either: how far it got.
  // The meshing itself came out over the limit (the estimate's error) and no retry fitted.
  if (stats.overBoundTets > 0)
    return `meshed, this surface gave ${count(stats.overBoundTets)} tets, above the limit of ${count(stats.maxTets)} (estimated ${count(stats.estimatedTets)}); ${stats.thinParts && stats.thinParts !== 'sample' && stats.thinnest > 0 ? 'its thin parts could go no coarser: ' : ''}fewer grid cells give fewer tets, or allow more tets.`;
  // Dropping thin parts would leave nothing: every part is that thin.
  if (stats.thinParts === 'drop' && stats.droppedBelow > 0 && !(stats.choiceFloorTets > 0))
    return `every part of this surface is thinner than ${mm(stats.droppedBelow)} (its thinnest about ${mm(stats.thinnest)}), so dropping thin parts would leave nothing; thicken them or mesh them coarser, or allow more tets.`;
  if (stats.choiceFloorTets > 0 && stats.thinParts && stats.thinParts !== 'sample') {
    const how = stats.thinParts === 'drop' ? 'thinner than a grid cell dropped'
      : stats.thinParts !== 'thicken' ? 'meshed as coarsely as keeps their two sides apart'
      : stats.thickenedTo > 0 ? `thickened to ${mm(stats.thickenedTo)}` : 'thickened to a grid cell';
    return `this surface would give about ${count(stats.estimatedTetsAsSampled || stats.estimatedTets)} tets, above the limit of ${count(stats.maxTets)}, and with its thin parts ${how} still about ${count(stats.choiceFloorTets)}; fewer grid cells give fewer tets, or allow more tets.`;
  }
  const what = stats.thinnest > 0
    ? `parts about ${mm(stats.thinnest)} thick are sampled by their thickness: thicken them${thickEnough(stats)}, or allow more tets`
    : 'fewer grid cells would give fewer tets, or allow more tets';
  return `this surface would give about ${count(stats.estimatedTets)} tets${frameCost(stats.estimatedTets, options?.msPerTet)}, above the limit of ${count(stats.maxTets)}; ${what}.`;
}

// Whether an import error is a refusal over the tet limit driven by thin parts (sampled by their
// thickness), with no thin-parts choice made yet: then the page offers one (thin_parts_choice.js).
export function isThinOverBudget(error) {
  const s = error?.stats;
  return error instanceof SoftbodyError && error.code === ErrorCode.TOO_LARGE && s?.maxTets > 0 && s.estimatedTets > s.maxTets &&
    s.thinnest > 0 && (s.thinParts ?? 'sample') === 'sample';
}

// The question the choice panel asks: what the import would cost, and why.
export function thinChoiceMessage(stats, name, options = null) {
  return `${name} would give about ${count(stats.estimatedTets)} tets${frameCost(stats.estimatedTets, options?.msPerTet)}, above the limit of ${count(stats.maxTets)}: its parts about ${mm(stats.thinnest)} thick are sampled by their thickness, two samples across. Import it with more tets, thicken the thin parts (the shape changes), mesh them coarser, or drop them?`;
}

// What the thin-parts choice did to a finished import, for the summary and a warning: "thin parts
// thickened to 58 mm (+0.053 m³)", "thin parts sampled 25 mm apart", or null.
export function thinChoiceNote(stats) {
  if (stats.thickenedTo > 0) return `thin parts thickened to ${mm(stats.thickenedTo)} (+${Number(stats.thickenedVolume.toPrecision(2))} m³)`;
  if (stats.coarsenedSpacing > 0) return `thin parts sampled ${mm(stats.coarsenedSpacing)} apart`;
  if (stats.droppedFaces > 0) return `parts thinner than ${mm(stats.droppedBelow)} dropped (−${Number(stats.droppedVolume.toPrecision(2))} m³)`;
  return null;
}

// Null unless the import's thin parts were thickened: the geometry changed, and by how much.
export function thickenedWarning(stats, name) {
  if (!(stats.thickenedTo > 0)) return null;
  const before = stats.surfaceVolume - stats.thickenedVolume;
  const grew = before > 0 ? ` (${Number((stats.surfaceVolume / before).toPrecision(2))}× its volume)` : '';
  return `${name}: thin parts about ${mm(stats.thinnest)} thick were thickened to ${mm(stats.thickenedTo)} to fit the tet limit; the body is ${Number(stats.thickenedVolume.toPrecision(2))} m³ larger than the surface${grew}.`;
}

// A 60 Hz frame, ms: a body whose physics alone takes longer cannot run in real time.
const FRAME_MS = 1000 / 60;

// Null unless the finished body's tets, at the page's measured step time per tet (options.msPerTet),
// take more than a frame; then how long, and what drives the count.
export function heavyBodyWarning(stats, name, options = null) {
  const ms = stats.tets * (options?.msPerTet ?? 0);
  if (!(ms > FRAME_MS)) return null;
  const why = stats.thinnest > 0
    ? `parts about ${mm(stats.thinnest)} thick are sampled by their thickness at any grid: thickened in a modeller${thickEnough(stats)}, they would cost what a solid does`
    : 'fewer grid cells give fewer tets';
  return `${name}: ${counted(stats.tets, 'tet')} take about ${Number(ms.toPrecision(2))} ms of physics per frame here, more than a 60 Hz frame; ${why}.`;
}

// An Error whose message is meant for the toast. name: the file or sample being imported;
// options: the { resolution, minQuality } it was tetrahedralized with, when known.
export function describeImportError(error, name, options = null) {
  if (error instanceof SoftbodyError) {
    const overBudget = error.code === ErrorCode.TOO_LARGE && error.stats?.maxTets > 0 &&
      (error.stats.estimatedTets > error.stats.maxTets || error.stats.overBoundTets > 0);
    const sentence = error.code === ErrorCode.NO_INSIDE_TETS ? noInsideSentence(error.stats, options)
      : overBudget ? overBudgetSentence(error.stats, options) : SENTENCES[error.code];
    if (sentence) return new Error(`Could not import ${name}: ${sentence} (${error.message})`);
    return new Error(`Could not import ${name}: ${error.message}`);
  }
  // ImportError messages start with their file's name when they have one; other errors (a
  // worker that would not load) get the request's name here.
  if (error?.name === 'ImportError' && error.fileName) return new Error(`Could not import ${error.message}`);
  return new Error(`Could not import ${name}: ${error?.message ?? error}`);
}

// stats: sb_tetra_stats (Tetra.stats()). Null when the surface was closed.
export function openSurfaceWarning(stats, name) {
  if (!(stats.openEdges > 0)) return null;
  return `${name} is not a closed surface (${counted(stats.openEdges, 'open edge')}): inside and outside were guessed from the winding number. If the body looks wrong, close the holes in a modeller.`;
}

// Null unless the tets of a closed surface hold clearly less than its volume; then why, and what
// would help. options: the { resolution, minQuality } used.
export function lostVolumeWarning(stats, name, options = null) {
  if (stats.openEdges > 0 || !(stats.surfaceVolume > 0) || !(stats.volume < LOST_VOLUME_WARNING * stats.surfaceVolume)) return null;
  const held = `${name}: the tets hold only ${Math.round((100 * stats.volume) / stats.surfaceVolume)} % of the surface's volume`;
  if (thinIsCause(stats))
    return `${held}: parts about ${mm(stats.thinThickness)} thick got few or no tets; ${thinAdvice(stats)}.`;
  if (stats.slivers > 0 && options?.minQuality > 0)
    return `${held}: ${counted(stats.slivers, 'tet')} below min quality ${options.minQuality} were removed; a lower min quality keeps more.`;
  return `${held}: the grid is coarse for its shape; more grid cells follow the surface more closely.`;
}

// Null unless closed shells were found inside others: they bound cavities and were kept hollow.
export function cavityNote(stats, name) {
  if (!(stats.cavities > 0)) return null;
  const one = stats.cavities === 1;
  return `${name} has ${counted(stats.cavities, 'closed shell')} inside another: ${one ? 'it bounds a cavity and was' : 'they bound cavities and were'} kept hollow, not filled (a shell inside a cavity is solid again).`;
}

// Every warning for a finished import, in the order a reader needs them.
export function importWarnings(stats, name, options = null) {
  return [openSurfaceWarning(stats, name), thickenedWarning(stats, name), lostVolumeWarning(stats, name, options), cavityNote(stats, name), heavyBodyWarning(stats, name, options)].filter(Boolean);
}

// The quality histogram as ten bars, quality 0 to 1 left to right, the tallest bin full height;
// an empty bin is a space so a gap is visible (e.g. no tet below 0.1).
export function qualityBars(histogram) {
  const bars = '▁▂▃▄▅▆▇█';
  const most = Math.max(...histogram);
  if (!(most > 0)) return '';
  return histogram.map((n) => (n > 0 ? bars[Math.min(bars.length - 1, Math.floor((n / most) * (bars.length - 1) + 0.5))] : ' ')).join('');
}

// One line for the readout, e.g. "2,345 vertices · 9,876 tets · 0 slivers removed · improved: 111
// slivers peeled, 13 points added · quality min 0.15, mean 0.61 ▁▁▂▃▄▆██▅▂ · 340 ms".
export function meshSummary(stats) {
  return [
    counted(stats.vertices, 'vertex', 'vertices'),
    counted(stats.tets, 'tet'),
    `${counted(stats.slivers, 'sliver')} removed`,
    ...(stats.fragmentTets ? [`${counted(stats.fragmentTets, 'loose tet')} removed`] : []),
    ...(stats.cavities ? [counted(stats.cavities, 'cavity', 'cavities')] : []),
    ...(stats.peeledSlivers || stats.refinementPoints
      ? [`improved: ${counted(stats.peeledSlivers ?? 0, 'sliver')} peeled, ${counted(stats.refinementPoints ?? 0, 'point')} added`]
      : []),
    ...(thinChoiceNote(stats) ? [thinChoiceNote(stats)] : []),
    `quality min ${stats.minQuality.toFixed(2)}, mean ${stats.meanQuality.toFixed(2)}${stats.qualityHistogram ? ` ${qualityBars(stats.qualityHistogram)}` : ''}`,
    `${Math.round(stats.milliseconds)} ms`,
  ].join(' · ');
}

// The same for a tet file: what was read and fixed.
export function tetFileSummary({ positions, tets, flipped, unusedVertices }) {
  const parts = [counted(positions.length / 3, 'vertex', 'vertices'), counted(tets.length / 4, 'tet')];
  if (flipped) parts.push(`${counted(flipped, 'tet')} re-oriented`);
  if (unusedVertices) parts.push(`${counted(unusedVertices, 'unused vertex', 'unused vertices')} dropped`);
  return parts.join(' · ');
}
