meta:
  id: bsp2_bsp
  title: Quake 1 BSP2 and 2PSB (RemakeQuake) lump records
  endian: le
  ks-version: 0.11
  imports:
    - quake1_bsp
doc: |
  Record types of the Quake 1 "BSP2" and "2PSB" formats, which widen Quake 1's 16-bit
  indices to 32 bits (source: ericw-tools' bspfile.h, which declares both: `bsp2_dnode_t`,
  `bsp2_dface_t`, ... for BSP2 and `bsp2rmq_dnode_t` / `bsp2rmq_dleaf_t` for RemakeQuake's
  2PSB). Unchanged records (planes, vertexes, texinfo, surfedges,
  models, the TEXTURES, VISIBILITY and LIGHTING lumps) are quake1_bsp's types. 2PSB differs from
  BSP2 only in NODES and LEAFS, whose bounding boxes stay 16-bit integers.
-bspedit-families: [bsp2, 2psb]
-bspedit-lumps:
  - {lump: PLANES, type: "quake1_bsp::plane"}
  - {lump: TEXTURES, type: "quake1_bsp::miptex_lump", whole: true}
  - {lump: VERTEXES, type: "quake1_bsp::vertex"}
  - {lump: VISIBILITY, type: "quake1_bsp::visibility", whole: true}
  - {lump: NODES, type: node_bsp2, families: [bsp2]}
  - {lump: NODES, type: node_2psb, families: [2psb]}
  - {lump: TEXINFO, type: "quake1_bsp::texinfo"}
  - {lump: FACES, type: face_bsp2}
  - {lump: LIGHTING, type: "quake1_bsp::lighting", whole: true}
  - {lump: CLIPNODES, type: clipnode_bsp2}
  - {lump: LEAFS, type: leaf_bsp2, families: [bsp2]}
  - {lump: LEAFS, type: leaf_2psb, families: [2psb]}
  - {lump: MARKSURFACES, type: marksurface_bsp2}
  - {lump: EDGES, type: edge_bsp2}
  - {lump: SURFEDGES, type: "quake1_bsp::surfedge"}
  - {lump: MODELS, type: "quake1_bsp::model"}
types:
  node_bsp2:
    -bspedit-size: 44
    doc: "BSP2 `bsp2_dnode_t`: Quake 1's dnode_t with 32-bit children and float bounds."
    seq:
      - id: planenum
        type: s4
        doc: Index of the splitting plane in PLANES.
      - id: children
        type: s4
        repeat: expr
        repeat-expr: 2
        doc: Front and back child; negative numbers are -(leafs + 1).
      - id: mins
        type: quake1_bsp::vec3
        doc: Bounding box minimum (floats).
      - id: maxs
        type: quake1_bsp::vec3
        doc: Bounding box maximum (floats).
      - id: firstface
        type: u4
        doc: First face of the node in FACES.
      - id: numfaces
        type: u4
        doc: Number of faces.
  node_2psb:
    -bspedit-size: 32
    doc: "2PSB `bsp2rmq_dnode_t`: 32-bit children and face indices, 16-bit integer bounds."
    seq:
      - id: planenum
        type: s4
        doc: Index of the splitting plane in PLANES.
      - id: children
        type: s4
        repeat: expr
        repeat-expr: 2
        doc: Front and back child; negative numbers are -(leafs + 1).
      - id: mins
        type: quake1_bsp::vec3_s2
        doc: Bounding box minimum (shorts).
      - id: maxs
        type: quake1_bsp::vec3_s2
        doc: Bounding box maximum (shorts).
      - id: firstface
        type: u4
        doc: First face of the node in FACES.
      - id: numfaces
        type: u4
        doc: Number of faces.
  face_bsp2:
    -bspedit-size: 28
    doc: "BSP2/2PSB `bsp2_dface_t`: Quake 1's dface_t with 32-bit fields."
    seq:
      - id: planenum
        type: s4
        doc: Index of the face's plane in PLANES.
      - id: side
        type: s4
        doc: Nonzero when the face looks along the back of the plane.
      - id: firstedge
        type: s4
        doc: First entry of the face's edge loop in SURFEDGES.
      - id: numedges
        type: s4
        doc: Number of SURFEDGES entries.
      - id: texinfo
        type: s4
        doc: Index into TEXINFO.
      - id: styles
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Light styles of the face's lightmaps (255 = none).
      - id: lightofs
        type: s4
        doc: Byte offset of the first lightmap in LIGHTING; -1 for none.
  clipnode_bsp2:
    -bspedit-size: 12
    doc: "BSP2/2PSB `bsp2_dclipnode_t`: a collision hull node with 32-bit children."
    seq:
      - id: planenum
        type: s4
        doc: Index of the splitting plane in PLANES.
      - id: children
        type: s4
        repeat: expr
        repeat-expr: 2
        doc: Front and back child; negative numbers are contents.
  leaf_bsp2:
    -bspedit-size: 44
    doc: "BSP2 `bsp2_dleaf_t`: Quake 1's dleaf_t with float bounds and 32-bit indices."
    seq:
      - id: contents
        type: s4
        doc: CONTENTS_* of the leaf.
      - id: visofs
        type: s4
        doc: Offset of the leaf's compressed visibility row in VISIBILITY; -1 for none.
      - id: mins
        type: quake1_bsp::vec3
        doc: Bounding box minimum (floats).
      - id: maxs
        type: quake1_bsp::vec3
        doc: Bounding box maximum (floats).
      - id: firstmarksurface
        type: u4
        doc: First entry of the leaf's faces in MARKSURFACES.
      - id: nummarksurfaces
        type: u4
        doc: Number of MARKSURFACES entries.
      - id: ambient_level
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Ambient sound levels (water, sky, slime, lava).
  leaf_2psb:
    -bspedit-size: 32
    doc: "2PSB `bsp2rmq_dleaf_t`: 32-bit indices, 16-bit integer bounds."
    seq:
      - id: contents
        type: s4
        doc: CONTENTS_* of the leaf.
      - id: visofs
        type: s4
        doc: Offset of the leaf's compressed visibility row in VISIBILITY; -1 for none.
      - id: mins
        type: quake1_bsp::vec3_s2
        doc: Bounding box minimum (shorts).
      - id: maxs
        type: quake1_bsp::vec3_s2
        doc: Bounding box maximum (shorts).
      - id: firstmarksurface
        type: u4
        doc: First entry of the leaf's faces in MARKSURFACES.
      - id: nummarksurfaces
        type: u4
        doc: Number of MARKSURFACES entries.
      - id: ambient_level
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Ambient sound levels (water, sky, slime, lava).
  marksurface_bsp2:
    -bspedit-size: 4
    doc: "BSP2/2PSB marksurfaces: `unsigned int` face indices listed by leafs."
    seq:
      - id: face
        type: u4
        doc: Index into FACES.
  edge_bsp2:
    -bspedit-size: 8
    doc: "BSP2/2PSB `bsp2_dedge_t`: an edge with 32-bit vertex indices."
    seq:
      - id: v
        type: u4
        repeat: expr
        repeat-expr: 2
        doc: Indices of the two vertices in VERTEXES.
