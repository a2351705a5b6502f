// Reading a ghostdb pack in the browser: the layout of ghostdb/pack/format.py (format 3),
// decoded in plain JavaScript for the offline site (`ghostdb export site`).
//
// The whole file is fetched once; the header and the index are read at once and checked
// against the root hash; a block (2,048 positions, raw DEFLATE) is inflated with the
// browser's DecompressionStream when a position in it is first asked for, its SHA-256
// checked, and kept.  Hashes are checked where the browser offers Web Crypto (https,
// localhost); elsewhere the page says they were not.
"use strict";

const PACK_MAGIC = "GHOSTPAK";
const PACK_END = "GHOSTEND";
const PACK_VERSION = 3;
const PACK_NONE = 0xffff;
const PACK_VALUES = ["loss", "draw", "tie", "win"];  // the outcome codes of a pack's value column
const utf8 = new TextDecoder("utf-8", { fatal: true });
const toUtf8 = new TextEncoder();

class PackError extends Error {}

function compareBytes(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function ascii(bytes) { return String.fromCharCode(...bytes); }

async function sha256(bytes) {
  if (!(globalThis.crypto && crypto.subtle)) return null;  // no Web Crypto: not checked
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function sameBytes(a, b) { return a.length === b.length && compareBytes(a, b) === 0; }

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

class Reader {
  constructor(bytes, at = 0) { this.bytes = bytes; this.at = at; }
  varint() {
    let n = 0, scale = 1, byte;
    do {
      byte = this.bytes[this.at];
      if (byte === undefined) throw new PackError("a varint runs past its block");
      this.at += 1;
      n += (byte & 0x7f) * scale;
      scale *= 128;
    } while (byte >= 0x80);
    return n;
  }
  take(n) {
    if (this.at + n > this.bytes.length) throw new PackError("a field runs past its block");
    const part = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return part;
  }
}

// One block's records: keys as UTF-8 bytes (the order they are sorted in), the columns.
class PackBlock {
  constructor(raw) {
    const r = new Reader(raw);
    const n = r.varint();
    const drops = Array.from({ length: n }, () => r.varint());
    const lengths = Array.from({ length: n }, () => r.varint());
    const keys = [];
    let before = new Uint8Array(0);
    for (let i = 0; i < n; i += 1) {
      const shared = before.length - drops[i];
      if (shared < 0) throw new PackError("a key drops more than the key before has");
      const rest = r.take(lengths[i]);
      const key = new Uint8Array(shared + rest.length);
      key.set(before.subarray(0, shared));
      key.set(rest, shared);
      keys.push(key);
      before = key;
    }
    this.keys = keys;
    this.reach = r.take((n + 7) >> 3);
    const column = () => {
      const low = r.take(n), high = r.take(n);
      return Uint16Array.from(low, (lo, i) => lo | (high[i] << 8));
    };
    this.values = column();
    this.safe = column();
    this.labels = [];
    for (let i = 0; i < n; i += 1) {
      const size = r.varint();
      this.labels.push(size === 0 ? null : utf8.decode(r.take(size - 1)));
    }
    if (r.at !== raw.length) throw new PackError("its columns do not add up");
  }

  find(key) {
    let lo = 0, hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareBytes(this.keys[mid], key) < 0) lo = mid + 1; else hi = mid;
    }
    return lo < this.keys.length && sameBytes(this.keys[lo], key) ? lo : -1;
  }

  // A position's fields as ghostdb.positions.FIELDS names them (a pack holds no best play).
  record(i) {
    const value = this.values[i], safe = this.safe[i];
    return {
      reachable: Boolean((this.reach[i >> 3] >> (i & 7)) & 1),
      outcome: PACK_VALUES[value & 3],
      game_length: value < 4 ? null : (value >> 2) - 1,
      safe_seats: safe === PACK_NONE ? null : safe,
      label: this.labels[i],
    };
  }
}

class Pack {
  // The pack at ``url``, its header and index read and checked.
  static async open(url) {
    let response;
    try { response = await fetch(url); } catch (error) {
      throw new PackError(`cannot read ${url}: ${error.message}`);
    }
    if (!response.ok) throw new PackError(`cannot read ${url}: HTTP ${response.status}`);
    const pack = new Pack(url, new Uint8Array(await response.arrayBuffer()));
    await pack.checkRoot();
    return pack;
  }

  constructor(url, bytes) {
    const where = `${url} `;
    this.url = url;
    this.bytes = bytes;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < 16 + 56 || ascii(bytes.subarray(0, 8)) !== PACK_MAGIC) {
      throw new PackError(`${where}is not a ghostdb pack (no pack header)`);
    }
    const version = view.getUint16(8, true);
    if (version !== PACK_VERSION) throw new PackError(`${where}is a pack of format ${version}; this page reads format ${PACK_VERSION}`);
    if (view.getUint16(10, true) !== 0) throw new PackError(`${where}is damaged: its head has a bit set that is not`);
    const headEnd = 16 + view.getUint32(12, true);
    const tail = bytes.length - 56;
    const at = Number(view.getBigUint64(tail, true));
    const length = Number(view.getBigUint64(tail + 8, true));
    if (ascii(bytes.subarray(tail + 48)) !== PACK_END || !(headEnd <= at && at + length <= tail)) {
      throw new PackError(`${where}is cut short or damaged at its end`);
    }
    this.headerBytes = bytes.subarray(16, headEnd);
    this.indexBytes = bytes.subarray(at, at + length);
    this.root = bytes.subarray(tail + 16, tail + 48);
    this.dataEnd = at;
    try { this.header = JSON.parse(utf8.decode(this.headerBytes)); } catch {
      throw new PackError(`${where}is damaged: its header is not JSON`);
    }
    this.index = this.readIndex(view, at, length);
    this.blocks = new Map();
    this.checked = null;  // whether the hashes could be checked (Web Crypto)
  }

  readIndex(view, at, length) {
    const entries = [];
    const count = view.getUint32(at, true);
    let p = at + 4;
    for (let i = 0; i < count; i += 1) {
      if (p + 50 > at + length) throw new PackError(`${this.url} is damaged: its index does not decode`);
      const entry = {
        offset: Number(view.getBigUint64(p, true)), length: view.getUint32(p + 8, true),
        count: view.getUint32(p + 12, true), sha256: this.bytes.subarray(p + 16, p + 48),
      };
      const size = view.getUint16(p + 48, true);
      entry.first = this.bytes.slice(p + 50, p + 50 + size);
      p += 50 + size;
      entries.push(entry);
    }
    if (p !== at + length) throw new PackError(`${this.url} is damaged: its index does not decode`);
    return entries;
  }

  async checkRoot() {
    const both = new Uint8Array(this.headerBytes.length + this.indexBytes.length);
    both.set(this.headerBytes);
    both.set(this.indexBytes, this.headerBytes.length);
    const digest = await sha256(both);
    this.checked = digest !== null;
    if (digest && !sameBytes(digest, this.root)) {
      throw new PackError(`${this.url} is damaged: its header or index does not match its root hash`);
    }
  }

  async block(number) {
    let found = this.blocks.get(number);
    if (!found) {
      found = this.readBlock(number);  // a promise: two asking at once share one read
      this.blocks.set(number, found);
      found.catch(() => this.blocks.delete(number));
    }
    return found;
  }

  async readBlock(number) {
    const entry = this.index[number];
    const where = `${this.url} is damaged: block ${number}`;
    if (!(16 <= entry.offset && entry.offset + entry.length <= this.dataEnd)) throw new PackError(`${where} lies outside the file`);
    const data = this.bytes.subarray(entry.offset, entry.offset + entry.length);
    const digest = await sha256(data);
    if (digest && !sameBytes(digest, entry.sha256)) throw new PackError(`${where} does not match its hash`);
    let block;
    try { block = new PackBlock(await inflate(data)); } catch (error) {
      throw new PackError(`${where} does not decode (${error.message})`);
    }
    if (block.keys.length !== entry.count || (block.keys.length && !sameBytes(block.keys[0], entry.first))) {
      throw new PackError(`${where} is not what its index says`);
    }
    return block;
  }

  // The record of a (canonical) key, or null if the pack holds no such position.
  async record(key) {
    const raw = toUtf8.encode(key);
    let lo = 0, hi = this.index.length;  // the last block whose first key is <= raw
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareBytes(this.index[mid].first, raw) <= 0) lo = mid + 1; else hi = mid;
    }
    if (lo === 0) return null;
    const block = await this.block(lo - 1);
    const i = block.find(raw);
    return i < 0 ? null : block.record(i);
  }
}
