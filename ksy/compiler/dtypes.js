#!/usr/bin/env node
// Write bspedit/format/generated/record_types.py from ksy/*.ksy: the numpy dtype of every fixed-size
// record type (as plain data, no numpy import) and the lump tables of the bspedit families.
// usage: node dtypes.js OUTFILE FILE.ksy...        (output is deterministic: sorted spec files)
'use strict';
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');

const PRIMITIVES = {
  u1: 'u1', u2: '<u2', u4: '<u4', u8: '<u8', s1: 'i1', s2: '<i2', s4: '<i4', s8: '<i8',
  f4: '<f4', f8: '<f8',
};
const FIELD_KEYS = new Set(['id', 'type', 'size', 'repeat', 'repeat-expr', 'doc', 'doc-ref', 'enum',
  'encoding']);

function fail(message) {
  throw new Error(message);
}

// Python literal of plain data: strings, ints, null, booleans, arrays (as lists) and
// {tuple: [...]} wrappers (as tuples).
function py(value) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) fail(`not an integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    if (!/^[\x20-\x7e]*$/.test(value)) fail(`not printable ASCII: ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(py).join(', ')}]`;
  if (value.tuple) {
    const items = value.tuple.map(py);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  fail(`cannot write ${JSON.stringify(value)}`);
}
const tuple = (...items) => ({ tuple: items });

// Whether the spec has fixed-size record types or lump tables (the specs this file reads).
function describesRecords(ksy) {
  return Object.values(ksy.types || {}).some((type) => '-bspedit-size' in type)
    || '-bspedit-lumps' in ksy || '-bspedit-game-lumps' in ksy;
}

// Whether the spec's byte order is switched by its `big_endian` parameter (the console maps'
// form: `endian: {switch-on: big_endian, cases: {false: le, true: be}}`); false for `endian: le`.
// Either way the dtypes written are the little-endian reading.
function byteOrderSwitched(file, ksy) {
  const endian = ksy.meta.endian;
  if (endian === 'le') return false;
  const param = (ksy.params || []).find((p) => p.id === 'big_endian');
  const cases = endian && endian.cases;
  if (!endian || endian['switch-on'] !== 'big_endian' || !param || param.type !== 'bool' || !cases
      || Object.keys(cases).length !== 2 || cases.false !== 'le' || cases.true !== 'be') {
    fail(`${file}: endian must be le or {switch-on: big_endian, cases: {false: le, true: be}} with a bool big_endian param`);
  }
  return true;
}

function main() {
  const [outFile, ...files] = process.argv.slice(2);
  if (!outFile || files.length === 0) {
    console.error('usage: node dtypes.js OUTFILE FILE.ksy...');
    process.exit(2);
  }
  const specs = new Map();
  const switched = [];             // specs whose byte order is the big_endian parameter's
  for (const file of [...files].sort()) {
    const ksy = yaml.load(fs.readFileSync(file, 'utf8'));
    if (!describesRecords(ksy)) continue;     // e.g. vbsp_header: its byte order is its own
    if (byteOrderSwitched(file, ksy)) switched.push(ksy.meta.id);
    specs.set(ksy.meta.id, ksy);
  }

  // "other_spec::type" or a local "type" -> [spec, type]
  const resolve = (spec, name) => (name.includes('::') ? name.split('::') : [spec, name]);
  const body = (spec, name) => {
    const ksy = specs.get(spec);
    const found = ksy && ksy.types && Object.prototype.hasOwnProperty.call(ksy.types, name) && ksy.types[name];
    return found || fail(`no type ${spec}::${name}`);
  };

  const dtypes = new Map();      // "spec::type" -> [size, fields]
  function dtypeOf(spec, name) {
    const key = `${spec}::${name}`;
    if (dtypes.has(key)) return dtypes.get(key);
    const type = body(spec, name);
    const size = type['-bspedit-size'];
    if (!Number.isInteger(size)) fail(`${key}: not a fixed-size type`);
    const fields = [];
    let offset = 0;
    for (const field of type.seq || []) {
      const where = `${key}.${field.id}`;
      for (const k of Object.keys(field)) if (!FIELD_KEYS.has(k)) fail(`${where}: unsupported key ${k}`);
      let format, width;
      const kind = field.type;
      if (kind === undefined || kind === 'str') {
        if (!Number.isInteger(field.size) || field.size <= 0) fail(`${where}: byte field without a literal size`);
        format = `S${field.size}`;
        width = field.size;
      } else if (field.size !== undefined) {
        fail(`${where}: size on a typed field`);
      } else if (Object.prototype.hasOwnProperty.call(PRIMITIVES, kind)) {
        format = PRIMITIVES[kind];
        width = Number(kind.slice(1));
      } else {
        const [s, n] = resolve(spec, kind);
        [width, format] = dtypeOf(s, n);
      }
      let shape = tuple();
      if (field.repeat !== undefined) {
        if (field.repeat !== 'expr' || !Number.isInteger(field['repeat-expr'])) fail(`${where}: repeat must be a literal expr`);
        shape = tuple(field['repeat-expr']);
        width *= field['repeat-expr'];
      }
      fields.push(tuple(field.id, format, shape));
      offset += width;
    }
    if (offset !== size) fail(`${key}: fields take ${offset} bytes, -bspedit-size is ${size}`);
    dtypes.set(key, [size, fields]);
    return dtypes.get(key);
  }

  const recordTypes = [];
  for (const [spec, ksy] of specs) {
    for (const [name, type] of Object.entries(ksy.types || {})) {
      if ('-bspedit-size' in type) recordTypes.push([`${spec}::${name}`, ...dtypeOf(spec, name)]);
    }
  }

  // family key -> lump -> entries; family key -> game lump id -> entries
  const lumps = new Map();
  const gameLumps = new Map();
  const entryOf = (spec, typeName, extra) => {
    const [s, n] = resolve(spec, typeName);
    const type = body(s, n);
    const fixed = '-bspedit-size' in type;
    return [`${s}::${n}`, fixed ? dtypeOf(s, n)[0] : null, extra(fixed)];
  };
  for (const [spec, ksy] of specs) {
    const families = ksy['-bspedit-families'] || [];
    for (const entry of ksy['-bspedit-lumps'] || []) {
      const [qualified, size, whole] = entryOf(spec, entry.type, (fixed) => {
        if (!!entry.whole === fixed) fail(`${spec}: ${entry.lump} ${entry.type}: whole must be set exactly for variable-size types`);
        return !!entry.whole;
      });
      for (const family of entry.families || families) {
        if (!families.includes(family)) fail(`${spec}: ${entry.lump}: family ${family} not in -bspedit-families`);
        if (!lumps.has(family)) lumps.set(family, new Map());
        const table = lumps.get(family);
        if (!table.has(entry.lump)) table.set(entry.lump, []);
        table.get(entry.lump).push(tuple(qualified, entry['lump-version'] ?? null,
          entry['map-versions'] ? tuple(...entry['map-versions']) : null, whole, size));
      }
    }
    for (const entry of ksy['-bspedit-game-lumps'] || []) {
      const [qualified, size] = entryOf(spec, entry.type, () => null);
      for (const family of families) {
        if (!gameLumps.has(family)) gameLumps.set(family, new Map());
        const table = gameLumps.get(family);
        if (!table.has(entry.id)) table.set(entry.id, []);
        table.get(entry.id).push(tuple(qualified, entry.version ?? null, size === null, size));
      }
    }
  }

  const out = [];
  out.push('"""Record types and lump tables of the bspedit families, as plain data.');
  out.push('');
  out.push('Generated from ksy/*.ksy by ksy/compiler/dtypes.js (run ksy/regenerate.sh); do not edit.');
  out.push('bspedit.format.recordtypes builds numpy dtypes from it.');
  out.push('');
  out.push('RECORD_TYPES: "spec::type" -> (size in bytes, fields); a field is (name, format, shape),');
  out.push('  the format a little-endian numpy type string ("S<n>" for bytes) or a nested field list.');
  out.push('LUMP_TABLES: family key -> lump name -> entries (type, lump version or None, map versions');
  out.push('  or None, whole, record size or None); whole types read the whole lump and have no size.');
  out.push('GAME_LUMP_TABLES: family key -> game lump id -> entries (type, version, whole, record size');
  out.push('  or None).');
  out.push('BYTE_ORDER_SPECS: the specs whose byte order is their big_endian parameter (console maps);');
  out.push('  their types may also be read big-endian (the formats above swapped). Others are little-endian.');
  out.push('"""');
  out.push('from __future__ import annotations');
  out.push('');
  out.push('from typing import Any');
  out.push('');
  out.push('RECORD_TYPES: dict[str, tuple[int, list[Any]]] = {');
  for (const [key, size, fields] of recordTypes) {
    out.push(`    ${py(key)}: (${size}, [`);
    for (const field of fields) out.push(`        ${py(field)},`);
    out.push('    ]),');
  }
  out.push('}');
  out.push('');
  out.push('LUMP_TABLES: dict[str, dict[str, list[tuple[Any, ...]]]] = {');
  for (const [family, table] of lumps) {
    out.push(`    ${py(family)}: {`);
    for (const [lump, entries] of table) {
      out.push(`        ${py(lump)}: [`);
      for (const e of entries) out.push(`            ${py(e)},`);
      out.push('        ],');
    }
    out.push('    },');
  }
  out.push('}');
  out.push('');
  out.push('GAME_LUMP_TABLES: dict[str, dict[str, list[tuple[Any, ...]]]] = {');
  for (const [family, table] of gameLumps) {
    out.push(`    ${py(family)}: {`);
    for (const [id, entries] of table) {
      out.push(`        ${py(id)}: [`);
      for (const e of entries) out.push(`            ${py(e)},`);
      out.push('        ],');
    }
    out.push('    },');
  }
  out.push('}');
  out.push('');
  out.push(`BYTE_ORDER_SPECS: frozenset[str] = frozenset(${py(switched.sort())})`);
  fs.writeFileSync(outFile, out.join('\n') + '\n');
}

try {
  main();
} catch (e) {
  console.error(`dtypes.js: ${e.message}`);
  process.exit(1);
}
