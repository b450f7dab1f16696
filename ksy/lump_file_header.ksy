meta:
  id: lump_file_header
  title: Valve lump file (.lmp) header
  endian:
    switch-on: big_endian
    cases:
      false: le
      true: be
doc: |
  The 20-byte lumpfileheader_t, in the byte order of the map the lump file belongs to:
  little-endian for PC maps, big-endian for console (PSBV) maps.
params:
  - id: big_endian
    type: bool
seq:
  - id: lump_offset
    type: s4
    doc: Offset of the data in the .lmp file, 20.
  - id: lump_id
    type: s4
  - id: lump_version
    type: s4
  - id: lump_length
    type: s4
  - id: map_revision
    type: s4
