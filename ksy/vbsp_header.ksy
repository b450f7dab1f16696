meta:
  id: vbsp_header
  title: Source engine BSP header (VBSP on PC, PSBV on consoles)
doc: |
  Magic, version, 64 lump_t, map revision: 1036 bytes. PC maps start 'VBSP' and are
  little-endian; console maps (Xbox 360, PS3) start 'PSBV' (the same int written
  big-endian) and store every field of the header big-endian. Left 4 Dead 2 v21 maps order
  lump_t as (version, offset, length, fourCC); CS:GO and Portal 2 v21 maps use the
  standard (offset, length, version, fourCC). Both readings are offered; the caller
  keeps the one whose directory is consistent.
seq:
  - id: magic
    size: 4
    valid:
      any-of:
        - '[0x56, 0x42, 0x53, 0x50]'
        - '[0x50, 0x53, 0x42, 0x56]'
  - id: body
    type: body
types:
  body:
    doc: Everything after the magic, in the byte order the magic names.
    meta:
      endian:
        switch-on: _root.magic
        cases:
          '[0x56, 0x42, 0x53, 0x50]': le
          '[0x50, 0x53, 0x42, 0x56]': be
    seq:
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
