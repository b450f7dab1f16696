meta:
  id: game_lump_directory
  title: Source game lump (lump 35) directory
  endian: le
doc: |
  A count and `dgamelump_t` entries. On PC the offsets are absolute file offsets; a
  compressed member (flags bit 0) stores its uncompressed size in `length`, and its
  stored size runs to the next entry's offset (a terminator entry with id 0 marks the end).
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
        doc: FourCC stored as a little-endian int, so 'sprp' reads as b'prps'.
      - id: flags
        type: u2
      - id: version
        type: u2
      - id: offset
        type: s4
      - id: length
        type: s4
