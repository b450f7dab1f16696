#!/usr/bin/env bash
# Regenerate bspedit/format/generated/*.py from ksy/*.ksy with the pinned compiler (needs node + npm),
# then bspedit/format/generated/record_types.py with ksy/compiler/dtypes.js.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
npm ci --prefix "$here/compiler" --no-audit --no-fund --loglevel=error >/dev/null
out="$here/../bspedit/format/generated"
find "$out" -name '*.py' ! -name '__init__.py' ! -name 'entities_tables.py' -delete  # that one: grammars/regenerate.sh
node "$here/compiler/ksc.js" "$out" bspedit.format.generated "$here"/*.ksy >/dev/null
# numpy dtypes of the fixed-size record types and the lump tables, as plain data (record_types.py)
node "$here/compiler/dtypes.js" "$out/record_types.py" "$here"/*.ksy
