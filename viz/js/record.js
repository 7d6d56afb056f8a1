// The scene record's decoding: the bytes viz/scene.py packs (a JSON header and typed arrays, viz.scene.pack), read and
// checked; a record that cannot be read is named (main.js: fail).

const SCENE_VERSION = 5;  // viz.scene.SCENE_VERSION
const DTYPES = {u1: Uint8Array, u2: Uint16Array, u4: Uint32Array, i1: Int8Array, f8: Float64Array};

// ---------------------------------------------------------------------------------------------------
// the record
// ---------------------------------------------------------------------------------------------------

export function asBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (data && data.buffer instanceof ArrayBuffer) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new Error("the scene did not arrive as bytes");
}

export function decode(data) {
  const bytes = asBytes(data);
  if (bytes.length < 8 || String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]) !== "DBLS")
    throw new Error("not a scene record (it does not start with DBLS)");
  const h = new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + h)));
  if (header.version !== SCENE_VERSION)
    throw new Error(`scene version ${header.version}; this renderer reads ${SCENE_VERSION}`);
  // copy the array section to a fresh, aligned buffer (the message's bytes may sit at any offset)
  const body = bytes.slice(8 + h).buffer;
  const arrays = {};
  for (const [name, spec] of Object.entries(header.arrays)) {
    const T = DTYPES[spec.dtype];
    if (!T) throw new Error(`scene array ${name} has dtype ${spec.dtype}`);
    const count = spec.shape.reduce((a, b) => a * b, 1);
    if (spec.offset + count * T.BYTES_PER_ELEMENT > body.byteLength) throw new Error(`scene array ${name} is cut short`);
    arrays[name] = new T(body, spec.offset, count);
  }
  return {header, arrays};
}

// what every model checks of a record before drawing from it (a malformed record is named, never drawn with NaN)
export function checkPoints(X, y) {
  if (!X || !y) throw new Error("the scene has no points");
  if (X.length !== 2 * y.length) throw new Error("the scene's points and labels differ in number");
  for (let i = 0; i < X.length; i++) if (!Number.isFinite(X[i])) throw new Error(`point ${(i >> 1) + 1} is not a number`);
  for (let i = 0; i < y.length; i++) if (y[i] !== 1 && y[i] !== -1) throw new Error(`label ${i + 1} is ${y[i]}, not ±1`);
}
export function checkBox(box) {
  if (!Array.isArray(box) || box.length !== 4 || !box.every(Number.isFinite) || !(box[0] < box[1] && box[2] < box[3]))
    throw new Error("the scene's view box is not four increasing numbers");
}
export function checkFinite(name, a) {
  for (let i = 0; i < a.length; i++) if (!Number.isFinite(a[i])) throw new Error(`${name} holds a value that is not a number`);
}
// a list per state as pointers into indices: ptr[0] = 0, never decreasing, ending at idx's length, every index < n
export function checkPtr(name, ptr, idx, n) {
  if (ptr[0] !== 0 || ptr[ptr.length - 1] !== idx.length) throw new Error(`${name}'s pointers do not span its points`);
  for (let k = 1; k < ptr.length; k++) if (ptr[k] < ptr[k - 1]) throw new Error(`${name}'s pointers go back`);
  for (const i of idx) if (i >= n) throw new Error(`${name} names point ${i + 1} of ${n}`);
}
