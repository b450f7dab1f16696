meta:
  id: bspx_directory
  title: BSPX extension directory appended after a Quake 1 map's last lump
  endian: le
seq:
  - id: magic
    contents: BSPX
  - id: num_lumps
    type: u4
  - id: lumps
    type: lump
    repeat: expr
    repeat-expr: num_lumps
types:
  lump:
    seq:
      - id: name
        size: 24
      - id: offset
        type: u4
      - id: length
        type: u4
