// Preloaded into `hexo generate` (NODE_OPTIONS=--require) to make builds repeatable:
// Hexo's database ids (warehouse cuid = nanoid, from crypto.randomFillSync) decide the order
// of a post's tags on some themes, and NexT's stylus picks random colours (Math.random).
// Both draw from one seeded generator (mulberry32) instead.
'use strict';
const crypto = require('crypto');
let state = 0x5eed1234 >>> 0;
function next() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
Math.random = next;
function fill(buf, offset, size) {
  const view = new Uint8Array(buf.buffer || buf, buf.byteOffset || 0, buf.byteLength);
  const start = offset || 0;
  const end = size === undefined ? view.length : start + size;
  for (let i = start; i < end; i++) view[i] = Math.floor(next() * 256);
  return buf;
}
crypto.randomFillSync = fill;
