meta:
  id: lump_file_header
  title: Valve lump file (.lmp) header
  endian: le
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
