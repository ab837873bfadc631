#!/usr/bin/env node
// Copies the installed `node-red` package and every package it needs at run time into one
// self-contained directory, the layout a gateway's `--node-red-dir` reads (node-red's own files,
// its dependencies under its node_modules/). Usage: node-red-closure.mjs SRC_NODE_MODULES DEST
//
// Why not `npm install node-red` at pack time: image builds run offline, and the project's
// node_modules already holds the exact versions its tests ran Node-RED with. Optional dependencies
// that are not installed (@node-rs/bcrypt, a native addon; bcryptjs stands in) are skipped, so the
// package stays pure JavaScript for x64 and arm64 alike.
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

const [src, dest] = process.argv.slice(2);
if (!src || !dest) {
  console.error('usage: node-red-closure.mjs SRC_NODE_MODULES DEST');
  process.exit(2);
}

const manifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Where `name` resolves from a package at `dir`, as Node's lookup does (nearest node_modules up to src). */
function resolveFrom(dir, name) {
  for (let at = dir; at.startsWith(src); at = dirname(at)) {
    const candidate = join(at, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (at === src) break;
  }
  const top = join(src, name);
  return existsSync(join(top, 'package.json')) ? top : null;
}

const root = join(src, 'node-red');
const hoisted = new Set(); // top-level packages of src the closure needs (nested ones travel with their parent)
const seen = new Set();
const queue = [root];
while (queue.length) {
  const dir = queue.pop();
  if (seen.has(dir)) continue;
  seen.add(dir);
  const pkg = manifest(dir);
  const optional = new Set(Object.keys(pkg.optionalDependencies ?? {}));
  for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
    const found = resolveFrom(dir, name);
    if (!found) {
      if (optional.has(name)) continue;
      throw new Error(`${pkg.name} needs ${name}, which is not installed under ${src}`);
    }
    // A package directly under src (not inside another package's node_modules) is copied on its own.
    if (!relative(src, found).split(sep).includes('node_modules')) hoisted.add(found);
    queue.push(found);
  }
}

mkdirSync(dest, { recursive: true });
cpSync(root, dest, { recursive: true, dereference: true });
for (const dir of [...hoisted].sort((a, b) => a.localeCompare(b))) {
  if (dir === root) continue;
  cpSync(dir, join(dest, 'node_modules', relative(src, dir)), { recursive: true, dereference: true });
}
console.log(`node-red ${manifest(root).version}: ${hoisted.size} packages`);
