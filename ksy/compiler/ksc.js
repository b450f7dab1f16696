#!/usr/bin/env node
// Compile .ksy specs to Python with the pinned npm kaitai-struct-compiler (it ships an API, no CLI).
// usage: node ksc.js OUTDIR PYTHON_PACKAGE FILE.ksy...
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');

// The published API hard-codes an empty Python package; imports between generated modules then break
// inside a package. Patch that one argument, and only in the exact compiler build we pinned.
const PINNED_SHA256 = 'c9aacee51040be0977299210fc2624e6bbf2a51770b3dca579accbbaa84ba353';
const CONFIG_START = 'var config = new $c_Lio_kaitai_struct_RuntimeConfig((!debug), debug,';
const CONFIG_TAIL = '"Kaitai", "", "", "kaitai_struct_nim_runtime"';

function loadCompiler(pythonPackage) {
  const file = require.resolve('kaitai-struct-compiler');
  const src = fs.readFileSync(file, 'utf8');
  const digest = crypto.createHash('sha256').update(src).digest('hex');
  if (digest !== PINNED_SHA256) throw new Error(`unexpected compiler build ${digest}; pin kaitai-struct-compiler@0.11.0`);
  const start = src.indexOf(CONFIG_START);
  const tail = src.indexOf(CONFIG_TAIL, start);
  if (start < 0 || src.indexOf(CONFIG_START, start + 1) >= 0 || tail < 0 || src.indexOf(';', start) < tail) {
    throw new Error('cannot find the runtime config to patch');
  }
  const patched = src.slice(0, tail) + `"Kaitai", "", ${JSON.stringify(pythonPackage)}, "kaitai_struct_nim_runtime"` +
    src.slice(tail + CONFIG_TAIL.length);
  const mod = { exports: {} };
  new Function('module', 'exports', 'define', 'require', patched)(mod, mod.exports, undefined, require);
  return mod.exports;
}

async function main() {
  const [outDir, pythonPackage, ...files] = process.argv.slice(2);
  if (!outDir || !pythonPackage || files.length === 0) {
    console.error('usage: node ksc.js OUTDIR PYTHON_PACKAGE FILE.ksy...');
    process.exit(2);
  }
  const compiler = loadCompiler(pythonPackage);
  for (const file of files) {
    const dir = path.dirname(path.resolve(file));
    const importer = {
      importYaml(name, mode) {
        const candidate = path.join(dir, name + '.ksy');
        if (mode !== 'rel' || !fs.existsSync(candidate)) return Promise.reject(new Error(`import not found: ${name}`));
        return Promise.resolve(yaml.load(fs.readFileSync(candidate, 'utf8')));
      },
    };
    let out;
    try {
      out = await compiler.compile('python', yaml.load(fs.readFileSync(file, 'utf8')), importer, false);
    } catch (e) {
      console.error(`${file}: ${e && e.getMessage ? e.getMessage() : e}`);
      process.exitCode = 1;
      continue;
    }
    for (const [name, code] of Object.entries(out)) {
      fs.writeFileSync(path.join(outDir, name), code);
      console.log(path.join(outDir, name));
    }
  }
}

main();
