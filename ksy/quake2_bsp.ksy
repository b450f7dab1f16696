meta:
  id: quake2_bsp
  title: Quake 2 (IBSP 38) lump records
  endian: le
  ks-version: 0.11
  imports:
    - quake1_bsp
doc: |
  Record types of the lumps of Quake 2 IBSP version 38 maps. A types library: no top-level
  seq. Sources: id Software's Quake 2 qfiles.h (dplane_t, dnode_t, texinfo_t, dface_t,
  dleaf_t, dmodel_t, dbrush_t, dbrushside_t, darea_t, dareaportal_t, dvis_t) and the seed
  document 004 (Quake 2). Records identical to Quake 1's (planes, vertexes, edges,
  surfedges) are quake1_bsp's types. ENTITIES is text (entities grammar).
-bspedit-families: [q2]
-bspedit-lumps:
  - {lump: PLANES, type: "quake1_bsp::plane"}
  - {lump: VERTEXES, type: "quake1_bsp::vertex"}
  - {lump: VISIBILITY, type: visibility, whole: true}
  - {lump: NODES, type: node}
  - {lump: TEXINFO, type: texinfo}
  - {lump: FACES, type: face}
  - {lump: LIGHTING, type: lighting, whole: true}
  - {lump: LEAFS, type: leaf}
  - {lump: LEAFFACES, type: leafface}
  - {lump: LEAFBRUSHES, type: leafbrush}
  - {lump: EDGES, type: "quake1_bsp::edge"}
  - {lump: SURFEDGES, type: "quake1_bsp::surfedge"}
  - {lump: MODELS, type: model}
  - {lump: BRUSHES, type: brush}
  - {lump: BRUSHSIDES, type: brush_side}
  - {lump: AREAS, type: area}
  - {lump: AREAPORTALS, type: areaportal}
  - {lump: POP, type: pop, whole: true}
types:
  node:
    -bspedit-size: 28
    doc: "`dnode_t` (qfiles.h): an inner node of the BSP tree."
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
        doc: Bounding box minimum, for frustum culling.
      - id: maxs
        type: quake1_bsp::vec3_s2
        doc: Bounding box maximum.
      - id: firstface
        type: u2
        doc: First face of the node in FACES.
      - id: numfaces
        type: u2
        doc: Number of faces; counting both sides.
  texinfo:
    -bspedit-size: 76
    doc: "`texinfo_t` (qfiles.h): texture projection, surface flags and texture name."
    seq:
      - id: vecs
        type: f4
        repeat: expr
        repeat-expr: 8
        doc: "vecs[2][4]: s and t vectors, each [x y z offset] (in texels)."
      - id: flags
        type: s4
        doc: SURF_* flags (SURF_LIGHT, SURF_SKY, SURF_WARP, ...).
      - id: value
        type: s4
        doc: Light emission and other per-surface values.
      - id: texture
        size: 32
        doc: "Texture name (char texture[32]), e.g. e1u1/floor1_3: ASCII up to a NUL; raw bytes,
          as what follows the NUL is not always zeros."
      - id: nexttexinfo
        type: s4
        doc: Next texinfo of an animation chain; -1 for the end.
  face:
    -bspedit-size: 20
    doc: "`dface_t` (qfiles.h): one polygon of the map."
    seq:
      - id: planenum
        type: u2
        doc: Index of the face's plane in PLANES.
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
        type: s2
        doc: Index into TEXINFO.
      - id: styles
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Light styles of the face's lightmaps (MAXLIGHTMAPS = 4; 255 = none).
      - id: lightofs
        type: s4
        doc: Byte offset of the first lightmap in LIGHTING; -1 for none.
  leaf:
    -bspedit-size: 28
    doc: "`dleaf_t` (qfiles.h): a convex leaf of the BSP tree."
    seq:
      - id: contents
        type: s4
        doc: OR of the CONTENTS_* of all brushes inside the leaf.
      - id: cluster
        type: s2
        doc: Visibility cluster of the leaf; -1 for none.
      - id: area
        type: s2
        doc: Area of the leaf (for area portals).
      - id: mins
        type: quake1_bsp::vec3_s2
        doc: Bounding box minimum, for frustum culling.
      - id: maxs
        type: quake1_bsp::vec3_s2
        doc: Bounding box maximum.
      - id: firstleafface
        type: u2
        doc: First entry of the leaf's faces in LEAFFACES.
      - id: numleaffaces
        type: u2
        doc: Number of LEAFFACES entries.
      - id: firstleafbrush
        type: u2
        doc: First entry of the leaf's brushes in LEAFBRUSHES.
      - id: numleafbrushes
        type: u2
        doc: Number of LEAFBRUSHES entries.
  leafface:
    -bspedit-size: 2
    doc: "`unsigned short dleaffaces[]` (qfiles.h): a face index listed by a leaf."
    seq:
      - id: face
        type: u2
        doc: Index into FACES.
  leafbrush:
    -bspedit-size: 2
    doc: "`unsigned short dleafbrushes[]` (qfiles.h): a brush index listed by a leaf."
    seq:
      - id: brush
        type: u2
        doc: Index into BRUSHES.
  model:
    -bspedit-size: 48
    doc: "`dmodel_t` (qfiles.h): the world (0) or a brush entity."
    seq:
      - id: mins
        type: quake1_bsp::vec3
        doc: Bounding box minimum.
      - id: maxs
        type: quake1_bsp::vec3
        doc: Bounding box maximum.
      - id: origin
        type: quake1_bsp::vec3
        doc: Origin of the model, for sounds or lights.
      - id: headnode
        type: s4
        doc: Head node of the model in NODES.
      - id: firstface
        type: s4
        doc: First face of the model in FACES (submodels only, for rendering).
      - id: numfaces
        type: s4
        doc: Number of faces.
  brush:
    -bspedit-size: 12
    doc: "`dbrush_t` (qfiles.h): a convex brush, for collision."
    seq:
      - id: firstside
        type: s4
        doc: First side of the brush in BRUSHSIDES.
      - id: numsides
        type: s4
        doc: Number of sides.
      - id: contents
        type: s4
        doc: CONTENTS_* of the brush.
  brush_side:
    -bspedit-size: 4
    doc: "`dbrushside_t` (qfiles.h): one side of a brush."
    seq:
      - id: planenum
        type: u2
        doc: Index of the side's plane in PLANES, facing out of the brush.
      - id: texinfo
        type: s2
        doc: Index into TEXINFO; -1 for none.
  area:
    -bspedit-size: 8
    doc: "`darea_t` (qfiles.h): an area, a region separated from others by area portals."
    seq:
      - id: numareaportals
        type: s4
        doc: Number of the area's portals in AREAPORTALS.
      - id: firstareaportal
        type: s4
        doc: First of the area's portals in AREAPORTALS.
  areaportal:
    -bspedit-size: 8
    doc: "`dareaportal_t` (qfiles.h): a portal from one area into another."
    seq:
      - id: portalnum
        type: s4
        doc: Number of the portal, shared by both areas' records; opened by func_areaportal.
      - id: otherarea
        type: s4
        doc: Index of the area on the other side.
  visibility:
    doc: |
      The VISIBILITY lump (`dvis_t`, qfiles.h): the number of clusters, then per cluster the
      offsets (from the start of the lump) of its PVS and PHS rows (`bitofs[numclusters][2]`,
      DVIS_PVS = 0, DVIS_PHS = 1). The rows that follow are run-length-encoded bit vectors over
      the clusters (a nonzero byte is 8 bits; a zero byte is followed by a count of zero bytes)
      and are kept as raw bytes in `rows`. An empty lump (no vis) has no header.
    seq:
      - id: numclusters
        type: s4
        doc: Number of clusters.
        if: not _io.eof
      - id: bitofs
        type: bitofs_pair
        repeat: expr
        repeat-expr: numclusters
        doc: The PVS and PHS row offsets of each cluster.
        if: not _io.eof
      - id: rows
        size-eos: true
        doc: The compressed PVS and PHS rows, raw.
  bitofs_pair:
    -bspedit-size: 8
    doc: "One `bitofs[i]` entry of `dvis_t` (qfiles.h): offsets of a cluster's rows."
    seq:
      - id: pvs
        type: s4
        doc: Offset of the cluster's potentially visible set row, from the start of the lump.
      - id: phs
        type: s4
        doc: Offset of the cluster's potentially hearable set row, from the start of the lump.
  pop:
    doc: |
      The POP lump (LUMP_POP of qfiles.h; qbsp3's `byte dpop[256]`): 256 bytes carried over
      from Quake 1's registered-version check (pop.lmp); Quake 2 never reads them, and maps
      written by qbsp3 hold zeros. Kept as raw bytes (some maps have an empty lump).
    seq:
      - id: data
        size-eos: true
        doc: The 256 bytes, raw.
  lighting:
    doc: |
      The LIGHTING lump (`byte dlightdata[]`, qfiles.h): RGB lightmap samples addressed by
      each face's `lightofs`. Kept as raw bytes.
    seq:
      - id: data
        size-eos: true
        doc: The lightmap samples, raw.
