// The one error type of the import modules: a message meant for the user (it goes into a toast as
// is), prefixed with the file it is about, plus a kind the tests and the page can switch on.
export const ImportErrorKind = Object.freeze({
  EMPTY: 'empty', // 0 bytes
  UNSUPPORTED: 'unsupported', // extension we do not read
  UNPARSABLE: 'unparsable', // the loader failed or found no mesh data
  NO_TRIANGLES: 'no-triangles', // a valid file with points or lines only
  NOT_FINITE: 'not-finite', // NaN or infinite coordinates
  TOO_LARGE: 'too-large', // above the byte, vertex or triangle limits
  FLAT: 'flat', // every vertex at one point: no size to scale to 1 m
  INVALID: 'invalid', // a tet file whose structure is wrong (counts, indices, format, version)
  DEGENERATE: 'degenerate', // a tet with zero volume or a repeated vertex
  MISSING_PAIR: 'missing-pair', // a TetGen .node without its .ele, or the other way round
  TOO_MANY: 'too-many', // several meshes dropped at once
});

export class ImportError extends Error {
  // fileName may be null (built-in samples); the message then stands alone.
  constructor(fileName, message, kind) {
    super(fileName ? `${fileName}: ${message}` : message);
    this.name = 'ImportError';
    this.fileName = fileName;
    this.kind = kind;
  }
}
