// Argument checks for the bridge (softbody.js): every public call checks its arguments here before
// they reach the wasm exports, because those convert silently: NaN and "abc" become vertex 0, 2**32 + 1
// becomes 1, true becomes 1 s, BigInt and null throw a bare TypeError. A refusal is a SoftbodyError,
// like the C API's, whose message names the call, the argument, what it must be and the value it got.
// (The error class and codes come from bridge_tables.js, which imports nothing: no import cycle.)
import { ErrorCode, SoftbodyError } from './bridge_tables.js';

const FLOAT32_MAX = 3.4028234663852886e38; // a larger finite double is Infinity once it is a float32
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;

// The value as the message shows it: typed, so "4" (a string) is not read as 4.
export function describe(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'undefined': return 'undefined';
    case 'number': return Object.is(value, -0) ? '0' : String(value);
    case 'bigint': return `${value}n (a BigInt)`;
    case 'string': return `${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)} (a string)`;
    case 'boolean': return `${value} (a boolean)`;
    case 'function': return 'a function';
    case 'symbol': return `${String(value)} (a symbol)`;
    default:
      if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
      if (Array.isArray(value)) return `an array of length ${value.length}`;
      return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
  }
}

// tail: more after "got ...", for a reader who passed a near miss.
function refuse(code, where, name, expected, value, tail = '') {
  const codeName = `SB_ERR_${Object.keys(ErrorCode).find((k) => ErrorCode[k] === code)}`;
  throw new SoftbodyError(code, codeName, `${codeName}: ${where}: ${name} must be ${expected}, got ${describe(value)}${tail}`);
}

// A finite number that survives the trip to float32 (C floats). NaN and infinities are NOT_FINITE,
// as the C API reports them; anything but a number is OUT_OF_RANGE (no type code in the C API).
export function number(where, name, value, expected = 'a finite number') {
  if (typeof value !== 'number') refuse(ErrorCode.OUT_OF_RANGE, where, name, expected, value);
  if (!Number.isFinite(value)) refuse(ErrorCode.NOT_FINITE, where, name, expected, value);
  if (Math.abs(value) > FLOAT32_MAX) refuse(ErrorCode.OUT_OF_RANGE, where, name, `${expected} within float32 range`, value);
  return value;
}

// Several numbers named as the call names them: numbers(where, { x, y, z }).
export function numbers(where, named) {
  for (const [name, value] of Object.entries(named)) number(where, name, value);
}

// An integer in [min, max] (int32 by default): the wasm call would truncate 2.5 and wrap 2**32 + 1.
export function integer(where, name, value, min = INT32_MIN, max = INT32_MAX, rangeCode = ErrorCode.OUT_OF_RANGE) {
  const expected = `an integer in [${min}, ${max}]`;
  if (typeof value !== 'number') refuse(ErrorCode.OUT_OF_RANGE, where, name, expected, value);
  if (!Number.isFinite(value)) refuse(ErrorCode.NOT_FINITE, where, name, expected, value);
  if (!Number.isInteger(value)) refuse(ErrorCode.OUT_OF_RANGE, where, name, expected, value);
  if (value < min || value > max) refuse(rangeCode, where, name, expected, value);
  return value;
}

export function uint32(where, name, value) {
  return integer(where, name, value, 0, UINT32_MAX);
}

// A vertex (or other element) index below count: INDEX_OUT_OF_RANGE past it, as the C API says.
export function index(where, name, value, count) {
  return integer(where, name, value, 0, count - 1, ErrorCode.INDEX_OUT_OF_RANGE);
}

// true or false only: 0, "false" and {} have no one obvious meaning.
export function boolean(where, name, value) {
  if (typeof value !== 'boolean') refuse(ErrorCode.OUT_OF_RANGE, where, name, 'true or false', value);
  return value;
}

// A key of `choices` (Param, Solver, ...). label names what it is: the message ends 'unknown
// parameter "stiffness"' for a string, as the bridge said before these checks.
export function oneOf(where, name, value, choices, label, code = ErrorCode.OUT_OF_RANGE) {
  if (typeof value === 'string' && Object.hasOwn(choices, value)) return value;
  const unknown = typeof value === 'string' ? `: unknown ${label} ${JSON.stringify(value)}` : '';
  refuse(code, where, name, `a ${label} (${Object.keys(choices).join(', ')})`, value, unknown);
}

// An options object: undefined (every default, unless required) or a plain object; its keys are
// checked by the caller. Keys it does not know are left alone: callers pass specs with more in them.
export function options(where, value, name = 'the options', required = false) {
  if (value === undefined && !required) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value) || ArrayBuffer.isView(value)) {
    refuse(value == null ? ErrorCode.NULL_POINTER : ErrorCode.OUT_OF_RANGE, where, name, 'an object', value);
  }
  return value;
}

function arrayLike(where, name, value) {
  if (value === null || value === undefined) refuse(ErrorCode.NULL_POINTER, where, name, 'an array', value);
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) refuse(ErrorCode.OUT_OF_RANGE, where, name, 'an array', value);
  if (ArrayBuffer.isView(value) && !('length' in value)) refuse(ErrorCode.OUT_OF_RANGE, where, name, 'an array', value);
  return value;
}

// [x, y, z] and the like: exactly `length` finite numbers (addBox({ cells: [4, 4] }) shifted the rest).
export function vector(where, name, value, length = 3) {
  arrayLike(where, name, value);
  if (value.length !== length) refuse(ErrorCode.BAD_COUNT, where, name, `${length} numbers`, value);
  for (let i = 0; i < length; i++) number(where, `${name}[${i}]`, value[i]);
  return value;
}

// Like vector, of integers in [min, max].
export function integers(where, name, value, length, min = INT32_MIN, max = INT32_MAX) {
  arrayLike(where, name, value);
  if (value.length !== length) refuse(ErrorCode.BAD_COUNT, where, name, `${length} integers`, value);
  for (let i = 0; i < length; i++) integer(where, `${name}[${i}]`, value[i], min, max);
  return value;
}

// Coordinates (or weights) for the C API: finite numbers, `per` to an item (a vertex: 3), as a
// Float32Array ready to copy in. item names the item in messages ("vertex 3"), as the C API does.
export function floats(where, name, value, per = 1, item = 'vertex') {
  arrayLike(where, name, value);
  if (value.length % per !== 0) refuse(ErrorCode.BAD_COUNT, where, name, `${per} numbers per ${item} (a length divisible by ${per})`, value);
  const checked = value instanceof Float32Array || value instanceof Float64Array;
  for (let i = 0; i < value.length; i++) {
    const x = value[i];
    if (checked && Number.isFinite(x) && Math.abs(x) <= FLOAT32_MAX) continue;
    number(where, per > 1 ? `${name}[${i}] (${item} ${Math.floor(i / per)})` : `${name}[${i}]`, x);
  }
  return value instanceof Float32Array ? value : Float32Array.from(value);
}

// Indices for the C API: integers in [0, 2^32 - 1], `per` to an item (a triangle: 3), as a Uint32Array.
// Whether they are below the vertex count is the C API's check (it names the triangle or tet).
export function indices(where, name, value, per = 1, item = 'item') {
  arrayLike(where, name, value);
  if (value.length % per !== 0) refuse(ErrorCode.BAD_COUNT, where, name, `${per} indices per ${item} (a length divisible by ${per})`, value);
  if (value instanceof Uint32Array) return value;
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= UINT32_MAX) continue;
    integer(where, per > 1 ? `${name}[${i}] (${item} ${Math.floor(i / per)})` : `${name}[${i}]`, v, 0, UINT32_MAX);
  }
  return Uint32Array.from(value);
}
