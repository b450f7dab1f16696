"""`bspedit ui`: a local web app on the library (a floor above `cli`, beside `batch`).

`server` serves the page and the JSON API on 127.0.0.1 behind a token; `session` holds the
opened maps and their pending edits; `edits` the edit operations (applied to a map, described,
and written as the `bspedit` command that does the same); `routes_*` the API, one module per
view. Its web stack (starlette, uvicorn: the `ui` extra) is imported only by `bspedit ui`.
"""
