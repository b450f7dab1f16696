"""Lump models, each decoding one lump on first use: entities and their outputs, pakfile, game
lump, static props, records, variable-size structures."""
