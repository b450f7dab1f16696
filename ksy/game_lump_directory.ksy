meta:
  id: game_lump_directory
  title: Source game lump (lump 35) directory
  endian:
    switch-on: big_endian
    cases:
      false: le
      true: be
  ks-version: 0.11
doc: |
  A count and `dgamelump_t` entries, in the map's byte order (big-endian on console maps).
  On PC the offsets are absolute file offsets (console maps: relative to the game lump); a
  compressed member (flags bit 0) stores its uncompressed size in `length`, and its
  stored size runs to the next entry's offset (a terminator entry with id 0 marks the end).
params:
  - id: big_endian
    type: bool
    doc: The map is a console (PSBV) map, stored big-endian.
seq:
  - id: count
    type: s4
  - id: entries
    type: entry
    repeat: expr
    repeat-expr: count
types:
  entry:
    seq:
      - id: id
        size: 4
        doc: |
          FourCC stored as an int in the map's byte order, so 'sprp' reads as b'prps' on PC
          (little-endian) and as b'sprp' on console maps.
      - id: flags
        type: u2
      - id: version
        type: u2
      - id: offset
        type: s4
      - id: length
        type: s4
