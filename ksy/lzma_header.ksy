meta:
  id: lzma_header
  title: Valve's header of an LZMA-compressed lump or game lump
  endian: le
seq:
  - id: magic
    contents: LZMA
  - id: actual_size
    type: u4
  - id: lzma_size
    type: u4
  - id: properties
    size: 5
