#!/usr/bin/env bash
# Regenerate bspedit/generated/*.py from ksy/*.ksy with the pinned compiler (needs node + npm).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
npm ci --prefix "$here/compiler" --no-audit --no-fund --loglevel=error >/dev/null
out="$here/../bspedit/generated"
find "$out" -name '*.py' ! -name '__init__.py' ! -name 'entities_parser.py' -delete  # that one: grammars/regenerate.sh
node "$here/compiler/ksc.js" "$out" bspedit.generated "$here"/*.ksy >/dev/null
