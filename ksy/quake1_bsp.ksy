meta:
  id: quake1_bsp
  title: Quake 1 (BSP 29) and GoldSrc (BSP 30) lump records
  endian: le
  ks-version: 0.11
doc: |
  Record types of the lumps of Quake 1 BSP 29 maps and of GoldSrc / Half-Life BSP 30 maps
  (Blue Shift swaps lumps 0 and 1 but keeps every record). A types library: no top-level
  seq. Sources: id Software's Quake 1 bspfile.h (dplane_t, dnode_t, ...) and the seed
  document 001 (GoldSrc v30, BSPPLANE, BSPMIPTEX, ...). `-bspedit-lumps` says which lump
  holds which type; fixed-size types carry their byte size in `-bspedit-size`.
  ENTITIES is text and is described by the entities grammar, not here.
-bspedit-families: [q1, goldsrc, bshift]
-bspedit-lumps:
  - {lump: PLANES, type: plane}
  - {lump: TEXTURES, type: miptex_lump, whole: true, map-versions: [29]}
  - {lump: TEXTURES, type: miptex_lump_goldsrc, whole: true, map-versions: [30]}
  - {lump: VERTEXES, type: vertex}
  - {lump: VISIBILITY, type: visibility, whole: true}
  - {lump: NODES, type: node}
  - {lump: TEXINFO, type: texinfo}
  - {lump: FACES, type: face}
  - {lump: LIGHTING, type: lighting, whole: true}
  - {lump: CLIPNODES, type: clipnode}
  - {lump: LEAFS, type: leaf}
  - {lump: MARKSURFACES, type: marksurface}
  - {lump: EDGES, type: edge}
  - {lump: SURFEDGES, type: surfedge}
  - {lump: MODELS, type: model}
types:
  vec3:
    -bspedit-size: 12
    doc: A point or direction, `vec3_t` (three floats) of bspfile.h.
    seq:
      - id: x
        type: f4
        doc: X component.
      - id: y
        type: f4
        doc: Y component.
      - id: z
        type: f4
        doc: Z component.
  vec3_s2:
    -bspedit-size: 6
    doc: A bounding-box corner as `short mins[3]` / `short maxs[3]` of bspfile.h (whole units).
    seq:
      - id: x
        type: s2
        doc: X component.
      - id: y
        type: s2
        doc: Y component.
      - id: z
        type: s2
        doc: Z component.
  plane:
    -bspedit-size: 20
    doc: "`dplane_t` (bspfile.h; BSPPLANE of seed 001): a splitting plane, normal . p = dist."
    seq:
      - id: normal
        type: vec3
        doc: The plane's normal vector (unit length).
      - id: dist
        type: f4
        doc: Distance of the plane from the origin along the normal.
      - id: type
        type: s4
        doc: "PLANE_X/Y/Z (0-2) when axial, PLANE_ANYX/Y/Z (3-5) by the dominant axis."
  vertex:
    -bspedit-size: 12
    doc: "`dvertex_t` (bspfile.h; BSPVERTEX of seed 001): one vertex position."
    seq:
      - id: point
        type: vec3
        doc: The vertex position.
  node:
    -bspedit-size: 24
    doc: "`dnode_t` (bspfile.h; BSPNODE of seed 001): an inner node of the BSP tree."
    seq:
      - id: planenum
        type: s4
        doc: Index of the splitting plane in PLANES.
      - id: children
        type: s2
        repeat: expr
        repeat-expr: 2
        doc: Front and back child; negative numbers are -(leafs + 1).
      - id: mins
        type: vec3_s2
        doc: Bounding box minimum, for frustum culling.
      - id: maxs
        type: vec3_s2
        doc: Bounding box maximum.
      - id: firstface
        type: u2
        doc: First face (index into FACES) of the faces on this node's plane.
      - id: numfaces
        type: u2
        doc: Number of faces; counting both sides.
  texinfo:
    -bspedit-size: 40
    doc: "`texinfo_t` (bspfile.h; BSPTEXTUREINFO of seed 001): texture projection of a face."
    seq:
      - id: vecs
        type: f4
        repeat: expr
        repeat-expr: 8
        doc: "vecs[2][4]: s and t vectors, each [x y z offset] (in texels)."
      - id: miptex
        type: s4
        doc: Index of the miptex in the TEXTURES lump.
      - id: flags
        type: s4
        doc: "TEX_SPECIAL (1): sky or slime, no lightmap or 256 subdivision."
  face:
    -bspedit-size: 20
    doc: "`dface_t` (bspfile.h; BSPFACE of seed 001): one polygon of the map."
    seq:
      - id: planenum
        type: u2
        doc: "Index of the face's plane in PLANES (Quake's bspfile.h says short; seed 001's
          uint16_t iPlane is how engines read it)."
      - id: side
        type: s2
        doc: Nonzero when the face looks along the back of the plane.
      - id: firstedge
        type: s4
        doc: First entry of the face's edge loop in SURFEDGES.
      - id: numedges
        type: s2
        doc: Number of SURFEDGES entries.
      - id: texinfo
        type: u2
        doc: "Index into TEXINFO (short in bspfile.h, uint16_t iTextureInfo in seed 001)."
      - id: styles
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Light styles of the face's lightmaps (MAXLIGHTMAPS = 4; 255 = none).
      - id: lightofs
        type: s4
        doc: Byte offset of the first lightmap in LIGHTING; -1 for none.
  clipnode:
    -bspedit-size: 8
    doc: "`dclipnode_t` (bspfile.h; BSPCLIPNODE of seed 001): a node of a collision hull."
    seq:
      - id: planenum
        type: s4
        doc: Index of the splitting plane in PLANES.
      - id: children
        type: s2
        repeat: expr
        repeat-expr: 2
        doc: Front and back child; negative numbers are contents (CONTENTS_EMPTY, _SOLID, ...).
  leaf:
    -bspedit-size: 28
    doc: "`dleaf_t` (bspfile.h; BSPLEAF of seed 001): a convex leaf of the BSP tree."
    seq:
      - id: contents
        type: s4
        doc: "CONTENTS_* of the leaf (-1 empty, -2 solid, -3 water, ...)."
      - id: visofs
        type: s4
        doc: Offset of the leaf's compressed visibility row in VISIBILITY; -1 for none.
      - id: mins
        type: vec3_s2
        doc: Bounding box minimum, for frustum culling.
      - id: maxs
        type: vec3_s2
        doc: Bounding box maximum.
      - id: firstmarksurface
        type: u2
        doc: First entry of the leaf's faces in MARKSURFACES.
      - id: nummarksurfaces
        type: u2
        doc: Number of MARKSURFACES entries.
      - id: ambient_level
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: "Ambient sound levels (NUM_AMBIENTS = 4: water, sky, slime, lava)."
  marksurface:
    -bspedit-size: 2
    doc: "`unsigned short dmarksurfaces[]` (bspfile.h): a face index listed by a leaf."
    seq:
      - id: face
        type: u2
        doc: Index into FACES.
  edge:
    -bspedit-size: 4
    doc: "`dedge_t` (bspfile.h; BSPEDGE of seed 001): an edge between two vertices."
    seq:
      - id: v
        type: u2
        repeat: expr
        repeat-expr: 2
        doc: Indices of the two vertices in VERTEXES.
  surfedge:
    -bspedit-size: 4
    doc: "`int dsurfedges[]` (bspfile.h): an edge of a face's loop."
    seq:
      - id: edge
        type: s4
        doc: Index into EDGES; negative means the edge is walked from its second vertex.
  model:
    -bspedit-size: 64
    doc: "`dmodel_t` (bspfile.h; BSPMODEL of seed 001): the world (0) or a brush entity."
    seq:
      - id: mins
        type: vec3
        doc: Bounding box minimum.
      - id: maxs
        type: vec3
        doc: Bounding box maximum.
      - id: origin
        type: vec3
        doc: Origin of the model.
      - id: headnode
        type: s4
        repeat: expr
        repeat-expr: 4
        doc: "Head nodes of the hulls (MAX_MAP_HULLS = 4): 0 in NODES, 1-3 in CLIPNODES."
      - id: visleafs
        type: s4
        doc: Number of leafs in the model, not counting the solid leaf 0.
      - id: firstface
        type: s4
        doc: First face of the model in FACES.
      - id: numfaces
        type: s4
        doc: Number of faces.
  miptex:
    -bspedit-size: 40
    doc: "`miptex_t` (bspfile.h; BSPMIPTEX of seed 001): the header of one texture."
    seq:
      - id: name
        size: 16
        doc: "Texture name (char name[16]): ASCII up to a NUL, then whatever the compiler left there
          (not always zeros, not always ASCII), so kept as raw bytes."
      - id: width
        type: u4
        doc: Width in texels (a multiple of 16).
      - id: height
        type: u4
        doc: Height in texels (a multiple of 16).
      - id: offsets
        type: u4
        repeat: expr
        repeat-expr: 4
        doc: "Offsets of the 4 mip levels (MIPLEVELS) from the start of this miptex; all 0
          when the texture lives in an external WAD (GoldSrc)."
  miptex_lump:
    doc: |
      The TEXTURES lump of Quake 1 (`dmiptexlump_t` of bspfile.h): a count, one offset per
      texture from the start of the lump (-1: the texture is missing), then the miptex
      headers and their 8-bit pixels (w*h, w/2*h/2, w/4*h/4, w/8*h/8 bytes). The count and
      offsets are fields; everything after them is kept as raw bytes in `data` (so that
      every byte of the lump is covered), and `miptexes` views the headers and pixels in it.
    seq:
      - id: nummiptex
        type: s4
        doc: Number of textures.
      - id: dataofs
        type: s4
        repeat: expr
        repeat-expr: nummiptex
        doc: Offset of each miptex from the start of the lump; -1 when it is missing.
      - id: data
        size-eos: true
        doc: Raw bytes after the offsets (miptex headers, pixels, any padding).
    instances:
      miptexes:
        type: miptex_slot(dataofs[_index], false)
        repeat: expr
        repeat-expr: nummiptex
        doc: "One view per offset: the miptex header and pixels at that offset."
  miptex_lump_goldsrc:
    doc: |
      The TEXTURES lump of GoldSrc BSP 30 (seed 001: nMipTextures, BSPMIPTEXOFFSET[],
      BSPMIPTEX): as Quake 1's, but textures kept in external WADs have only the 40-byte
      header (offsets 0), and each embedded texture's 4 mip levels are followed by its own
      palette, a 16-bit colour count (256) then the RGB triples (not in seed 001: as GoldSrc
      engines read it, e.g. Xash3D's mod_bmodel.c, a short and 768 bytes), usually then 2
      bytes of padding. The count and offsets are
      fields; everything after them is raw bytes in `data`; `miptexes` views into it.
    seq:
      - id: nummiptex
        type: s4
        doc: Number of textures (nMipTextures).
      - id: dataofs
        type: s4
        repeat: expr
        repeat-expr: nummiptex
        doc: Offset of each BSPMIPTEX from the start of the lump; -1 when it is missing.
      - id: data
        size-eos: true
        doc: Raw bytes after the offsets (headers, pixels, palettes, any padding).
    instances:
      miptexes:
        type: miptex_slot(dataofs[_index], true)
        repeat: expr
        repeat-expr: nummiptex
        doc: "One view per offset: the miptex header, pixels and palette at that offset."
  miptex_slot:
    doc: A view (no bytes of its own) of the texture at one offset of the TEXTURES lump.
    params:
      - id: ofs
        type: s4
        doc: Offset of the miptex from the start of the lump; -1 when missing.
      - id: has_palette
        type: bool
        doc: True for GoldSrc, whose embedded textures carry their own palette.
    instances:
      header:
        pos: ofs
        type: miptex
        if: ofs != -1
        doc: The miptex header at `ofs`.
      mip0:
        pos: ofs + header.offsets[0]
        size: header.width * header.height
        if: ofs != -1 and header.offsets[0] != 0
        doc: Full-size 8-bit pixels.
      mip1:
        pos: ofs + header.offsets[1]
        size: (header.width / 2) * (header.height / 2)
        if: ofs != -1 and header.offsets[1] != 0
        doc: Half-size pixels.
      mip2:
        pos: ofs + header.offsets[2]
        size: (header.width / 4) * (header.height / 4)
        if: ofs != -1 and header.offsets[2] != 0
        doc: Quarter-size pixels.
      mip3:
        pos: ofs + header.offsets[3]
        size: (header.width / 8) * (header.height / 8)
        if: ofs != -1 and header.offsets[3] != 0
        doc: Eighth-size pixels.
      palette:
        pos: ofs + header.offsets[3] + (header.width / 8) * (header.height / 8)
        type: palette
        if: has_palette and ofs != -1 and header.offsets[3] != 0
        doc: GoldSrc only, the palette after the last mip level.
  palette:
    doc: A GoldSrc embedded texture's palette (seed 001), after its 4th mip level.
    seq:
      - id: num_colors
        type: u2
        doc: Number of colours (256 in maps written by the Half-Life tools).
      - id: colors
        size: num_colors * 3
        doc: RGB triples, one byte per channel.
  visibility:
    doc: |
      The VISIBILITY lump of Quake 1 / GoldSrc: no header. Each leaf's `visofs` points to its
      row, a run-length-encoded bit vector over the leafs 1..visleafs of the world: a nonzero
      byte is 8 visibility bits (bit k of byte i: leaf 8*i+k+1 is visible), a zero byte is
      followed by a count byte meaning that many zero bytes. Rows may be shared between
      leafs. The whole lump is kept as raw bytes (bspfile.h: `byte dvisdata[]`).
    seq:
      - id: data
        size-eos: true
        doc: The compressed rows, raw.
  lighting:
    doc: |
      The LIGHTING lump: lightmap samples addressed by each face's `lightofs`; one byte per
      sample in Quake 1 (`byte dlightdata[]`, bspfile.h), RGB triples in GoldSrc (seed 001).
      Kept as raw bytes.
    seq:
      - id: data
        size-eos: true
        doc: The lightmap samples, raw.
