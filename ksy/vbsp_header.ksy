meta:
  id: vbsp_header
  title: Source engine BSP header (VBSP)
  endian: le
doc: |
  'VBSP', version, 64 lump_t, map revision: 1036 bytes. Left 4 Dead 2 v21 maps order
  lump_t as (version, offset, length, fourCC); CS:GO and Portal 2 v21 maps use the
  standard (offset, length, version, fourCC). Both readings are offered; the caller
  keeps the one whose directory is consistent.
seq:
  - id: magic
    contents: VBSP
  - id: version
    type: s4
  - id: directory
    size: 64 * 16
  - id: map_revision
    type: s4
instances:
  lumps_standard:
    pos: 8
    type: lump_standard
    repeat: expr
    repeat-expr: 64
  lumps_l4d2:
    pos: 8
    type: lump_l4d2
    repeat: expr
    repeat-expr: 64
types:
  lump_standard:
    seq:
      - id: offset
        type: s4
      - id: length
        type: s4
      - id: version
        type: s4
      - id: fourcc
        type: u4
  lump_l4d2:
    seq:
      - id: version
        type: s4
      - id: offset
        type: s4
      - id: length
        type: s4
      - id: fourcc
        type: u4
