meta:
  id: quake_header
  title: Header and lump directory of id Software style BSP files
  endian: le
doc: |
  Quake 1 (v29, BSP2, 2PSB), GoldSrc (v30), Quake 2 (IBSP 38), Quake 3 (IBSP 46/47,
  RBSP/FBSP): an optional 4-byte ident, an optional version, then `num_lumps` entries
  of (offset, length). Which of the two prefixes a family has comes from its table.
params:
  - id: ident_size
    type: u1
    doc: 4 when the file starts with a magic such as IBSP or BSP2, else 0.
  - id: has_version
    type: bool
  - id: num_lumps
    type: u1
seq:
  - id: ident
    size: ident_size
  - id: version
    type: s4
    if: has_version
  - id: lumps
    type: lump_entry
    repeat: expr
    repeat-expr: num_lumps
types:
  lump_entry:
    seq:
      - id: offset
        type: s4
      - id: length
        type: s4
