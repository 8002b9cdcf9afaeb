// Copyright 2026 the brigade authors. MIT license.

/**
 * The search of a pair of bytes at any position of a read buffer, sixteen positions at a time:
 * a WebAssembly module of two functions (SIMD), assembled here from its instructions, over a
 * memory of its own that one scan at a time reads into.
 *
 * The runtime's own search of a typed array looks at about one element a nanosecond, so a pair
 * at any position took two searches (`ByteText`'s even pairs, from two pairs of the literal)
 * each as long as the bytes: on a status line's first read of 1.6 MB, the searches of a letter
 * escape, a model attachment, an assistant record and a compaction took about 3 ms, more than
 * any other part of the call but Deno's start and the loading of its modules. This search of
 * one pair looks at every position in about a sixth of the time of the runtime's of one parity.
 * It needs the bytes in its own memory, so the read buffer is lent from it
 * ({@linkcode lendBuffer}), to one scan at a time: a copy into it would cost the fresh memory's
 * first touch again (about 0.5 ms a MiB). A scan that does not get it, or a runtime without
 * WebAssembly or its SIMD, searches the even pairs.
 *
 * @module
 */

/** The value types and instructions the module uses (the WebAssembly binary format's codes). */
const I32 = 0x7f;
const V128 = 0x7b;
const BLOCK = 0x02;
const LOOP = 0x03;
const IF = 0x04;
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;
const RETURN = 0x0f;
const GET = 0x20;
const SET = 0x21;
const TEE = 0x22;
const LOAD8_U = 0x2d;
const CONST = 0x41;
const EQ = 0x46;
const LT_S = 0x48;
const GT_U = 0x4b;
const GE_U = 0x4f;
const CLZ = 0x67;
const CTZ = 0x68;
const ADD = 0x6a;
const SUB = 0x6b;
const AND = 0x71;
const EMPTY = 0x40;
/** SIMD instructions: the prefix, then each one's number. */
const SIMD = 0xfd;
const V128_LOAD = 0x00;
const I8X16_SPLAT = 0x0f;
const I8X16_EQ = 0x23;
const V128_AND = 0x4e;
const I8X16_BITMASK = 0x64;

/*
 * Both functions take (position, bound, first, second) and return a position or -1, with the
 * locals 4 and 5 the two bytes splatted into vectors, 6 a 16-bit mask of hits, 7 a block's
 * start. `next` returns the first `p` from `position` on with `p + 1 < bound` where the pair
 * is; `previous` the last `p` from `position` down to `bound` (both the caller's to keep
 * within the memory). Sixteen positions at a time while a whole block fits, then one by one.
 */
const POSITION = 0;
const BOUND = 1;
const FIRST = 2;
const SECOND = 3;
const FIRSTS = 4;
const SECONDS = 5;
const MASK = 6;
const BLOCK_START = 7;

function sleb(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const low = value & 0x7f;
    value >>= 7;
    if ((value === 0 && !(low & 0x40)) || (value === -1 && (low & 0x40))) return [...out, low];
    out.push(low | 0x80);
  }
}

function uleb(value: number): number[] {
  const out: number[] = [];
  do {
    const low = value & 0x7f;
    value >>>= 7;
    out.push(value === 0 ? low : low | 0x80);
  } while (value !== 0);
  return out;
}

const constant = (value: number): number[] => [CONST, ...sleb(value)];

/** Leaves 1 on the stack when the pair is at the position in local `at`, else 0. */
const pairAt = (at: number): number[] => [
  ...[GET, at, LOAD8_U, 0, 0, GET, FIRST, EQ],
  ...[GET, at, LOAD8_U, 0, 1, GET, SECOND, EQ],
  AND,
];

/** Leaves (and keeps in MASK) the mask of the positions from local `at` on holding the pair. */
const hitsFrom = (at: number): number[] => [
  ...[GET, at, SIMD, V128_LOAD, 0, 0, GET, FIRSTS, SIMD, I8X16_EQ],
  ...[GET, at, SIMD, V128_LOAD, 0, 1, GET, SECONDS, SIMD, I8X16_EQ],
  ...[SIMD, V128_AND, SIMD, I8X16_BITMASK, TEE, MASK],
];

const splats = [
  GET,
  FIRST,
  SIMD,
  I8X16_SPLAT,
  SET,
  FIRSTS,
  GET,
  SECOND,
  SIMD,
  I8X16_SPLAT,
  SET,
  SECONDS,
];

const NEXT = [
  ...splats,
  // Sixteen at a time while the block and the byte after it are below the bound.
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, POSITION, ...constant(17), ADD, GET, BOUND, GT_U, BR_IF, 1],
  ...[...hitsFrom(POSITION), IF, EMPTY, GET, POSITION, GET, MASK, CTZ, ADD, RETURN, END],
  ...[GET, POSITION, ...constant(16), ADD, SET, POSITION, BR, 0, END, END],
  // Then one by one.
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, POSITION, ...constant(1), ADD, GET, BOUND, GE_U, BR_IF, 1],
  ...[...pairAt(POSITION), IF, EMPTY, GET, POSITION, RETURN, END],
  ...[GET, POSITION, ...constant(1), ADD, SET, POSITION, BR, 0, END, END],
  ...constant(-1),
  END,
];

const PREVIOUS = [
  ...splats,
  // Sixteen at a time, the block ending at the position, while it starts at the bound or after.
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, POSITION, ...constant(15), SUB, TEE, BLOCK_START, GET, BOUND, LT_S, BR_IF, 1],
  ...hitsFrom(BLOCK_START),
  ...[IF, EMPTY, GET, BLOCK_START, ...constant(31), GET, MASK, CLZ, SUB, ADD, RETURN, END],
  ...[GET, POSITION, ...constant(16), SUB, SET, POSITION, BR, 0, END, END],
  ...[BLOCK, EMPTY, LOOP, EMPTY],
  ...[GET, POSITION, GET, BOUND, LT_S, BR_IF, 1],
  ...[...pairAt(POSITION), IF, EMPTY, GET, POSITION, RETURN, END],
  ...[GET, POSITION, ...constant(1), SUB, SET, POSITION, BR, 0, END, END],
  ...constant(-1),
  END,
];

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(text: string): number[] {
  return [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

function body(code: number[]): number[] {
  const withLocals = [2, 2, V128, 2, I32, ...code];
  return [...uleb(withLocals.length), ...withLocals];
}

/** The module: a memory of 16 pages to start with, exported with `next` and `previous`. */
function moduleBytes(): Uint8Array<ArrayBuffer> {
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 4, I32, I32, I32, I32, 1, I32]),
    ...section(3, [2, 0, 0]),
    ...section(5, [1, 0x00, 16]),
    ...section(7, [3, ...name("memory"), 2, 0, ...name("next"), 0, 0, ...name("previous"), 0, 1]),
    ...section(10, [2, ...body(NEXT), ...body(PREVIOUS)]),
  ]);
}

const PAGE_BYTES = 64 * 1024;
/** Bytes past a lent buffer's end: a block of sixteen read at its last positions stays inside. */
const SLACK = 32;

interface Exports {
  memory: WebAssembly.Memory;
  next(position: number, bound: number, first: number, second: number): number;
  previous(position: number, bound: number, first: number, second: number): number;
}

/** The module's exports; `null` where it cannot be made (no WebAssembly, no SIMD). */
let engine: Exports | null | undefined;
/** Whether the memory is lent to a scan. */
let lent = false;

function load(): Exports | null {
  if (engine !== undefined) return engine;
  try {
    const module = new WebAssembly.Module(moduleBytes());
    engine = new WebAssembly.Instance(module).exports as unknown as Exports;
  } catch {
    engine = null;
  }
  return engine;
}

/**
 * A read buffer of `size` bytes in the search's memory (which grows to hold it), when no other
 * scan has it and the runtime can make it; else `undefined`. Give it back with
 * {@linkcode returnBuffer}: until then it is this caller's alone, and stays valid (the memory
 * does not grow while lent).
 */
export function lendBuffer(size: number): Uint8Array | undefined {
  if (lent) return undefined;
  const exports = load();
  if (exports === null) return undefined;
  const { memory } = exports;
  const missing = size + SLACK - memory.buffer.byteLength;
  try {
    if (missing > 0) memory.grow(Math.ceil(missing / PAGE_BYTES));
  } catch {
    return undefined;
  }
  lent = true;
  return new Uint8Array(memory.buffer, 0, size);
}

/** Takes back a buffer {@linkcode lendBuffer} lent; any other is ignored. Returns whether it was. */
export function returnBuffer(buffer: Uint8Array): boolean {
  if (!isLent(buffer)) return false;
  lent = false;
  return true;
}

/** Whether `bytes` is a view of the lent buffer (so {@linkcode nextPair} can search it). */
export function isLent(bytes: Uint8Array): boolean {
  return lent && engine != null && bytes.buffer === engine.memory.buffer &&
    bytes.byteOffset === 0;
}

/**
 * The first position from `from` on, below `end - 1`, where the byte `first` is followed by
 * `second` in the lent buffer, or -1. Positions are the buffer's.
 */
export function nextPair(from: number, end: number, first: number, second: number): number {
  return engine!.next(from, end, first, second);
}

/**
 * The last position from `from` down to `start` where the byte `first` is followed by
 * `second` in the lent buffer, or -1 (`from + 1` must be within the buffer).
 */
export function previousPair(from: number, start: number, first: number, second: number): number {
  return engine!.previous(from, start, first, second);
}
