meta:
  id: quake3_bsp
  title: Quake 3 (IBSP 46; 47 RTCW, Enemy Territory) lump records
  endian: le
  ks-version: 0.11
  imports:
    - quake1_bsp
doc: |
  Record types of the lumps of Quake 3 IBSP version 46 maps and of version 47 (Return to
  Castle Wolfenstein, Enemy Territory), whose records are the same. A types library: no
  top-level seq. Sources: id Software's Quake 3 qfiles.h (dshader_t, dplane_t, dnode_t,
  dleaf_t, dmodel_t, dbrush_t, dbrushside_t, drawVert_t, dfog_t, dsurface_t) and the seed
  document 000 (Unofficial Quake 3 Map Specs: lightmaps, visdata). `vec3` is quake1_bsp's.
  ENTITIES is text (entities grammar).
-bspedit-families: [q3]
-bspedit-lumps:
  - {lump: SHADERS, type: shader}
  - {lump: PLANES, type: plane}
  - {lump: NODES, type: node}
  - {lump: LEAFS, type: leaf}
  - {lump: LEAFSURFACES, type: leafsurface}
  - {lump: LEAFBRUSHES, type: leafbrush}
  - {lump: MODELS, type: model}
  - {lump: BRUSHES, type: brush}
  - {lump: BRUSHSIDES, type: brush_side}
  - {lump: DRAWVERTS, type: draw_vert}
  - {lump: DRAWINDEXES, type: draw_index}
  - {lump: FOGS, type: fog}
  - {lump: SURFACES, type: surface}
  - {lump: LIGHTMAPS, type: lightmap}
  - {lump: LIGHTGRID, type: light_grid}
  - {lump: VISIBILITY, type: visibility, whole: true}
types:
  vec3_s4:
    -bspedit-size: 12
    doc: "An integer bounding-box corner, `int mins[3]` / `int maxs[3]` of qfiles.h."
    seq:
      - id: x
        type: s4
        doc: X component.
      - id: y
        type: s4
        doc: Y component.
      - id: z
        type: s4
        doc: Z component.
  shader:
    -bspedit-size: 72
    doc: "`dshader_t` (qfiles.h; seed 000: Textures): a shader used by surfaces or brushes."
    seq:
      - id: shader
        size: 64
        doc: "Shader name (char shader[MAX_QPATH = 64]): ASCII up to a NUL; raw bytes, as what
          follows the NUL is not always zeros."
      - id: surface_flags
        type: s4
        doc: SURF_* flags (surfaceFlags).
      - id: content_flags
        type: s4
        doc: CONTENTS_* flags (contentFlags).
  plane:
    -bspedit-size: 16
    doc: "`dplane_t` (qfiles.h): a plane, normal . p = dist (no type field, unlike Quake 1/2)."
    seq:
      - id: normal
        type: quake1_bsp::vec3
        doc: The plane's normal vector (unit length).
      - id: dist
        type: f4
        doc: Distance of the plane from the origin along the normal.
  node:
    -bspedit-size: 36
    doc: "`dnode_t` (qfiles.h): an inner node of the BSP tree."
    seq:
      - id: plane_num
        type: s4
        doc: Index of the splitting plane in PLANES (planeNum).
      - id: children
        type: s4
        repeat: expr
        repeat-expr: 2
        doc: Front and back child; negative numbers are -(leafs + 1).
      - id: mins
        type: vec3_s4
        doc: Integer bounding box minimum, for frustum culling.
      - id: maxs
        type: vec3_s4
        doc: Integer bounding box maximum.
  leaf:
    -bspedit-size: 48
    doc: "`dleaf_t` (qfiles.h): a convex leaf of the BSP tree."
    seq:
      - id: cluster
        type: s4
        doc: Visibility cluster; -1 for opaque leafs.
      - id: area
        type: s4
        doc: Area of the leaf (for area portals).
      - id: mins
        type: vec3_s4
        doc: Integer bounding box minimum, for frustum culling.
      - id: maxs
        type: vec3_s4
        doc: Integer bounding box maximum.
      - id: first_leaf_surface
        type: s4
        doc: First entry of the leaf's surfaces in LEAFSURFACES (firstLeafSurface).
      - id: num_leaf_surfaces
        type: s4
        doc: Number of LEAFSURFACES entries.
      - id: first_leaf_brush
        type: s4
        doc: First entry of the leaf's brushes in LEAFBRUSHES (firstLeafBrush).
      - id: num_leaf_brushes
        type: s4
        doc: Number of LEAFBRUSHES entries.
  leafsurface:
    -bspedit-size: 4
    doc: "`int` of LUMP_LEAFSURFACES (qfiles.h): a surface index listed by a leaf."
    seq:
      - id: surface
        type: s4
        doc: Index into SURFACES.
  leafbrush:
    -bspedit-size: 4
    doc: "`int` of LUMP_LEAFBRUSHES (qfiles.h): a brush index listed by a leaf."
    seq:
      - id: brush
        type: s4
        doc: Index into BRUSHES.
  model:
    -bspedit-size: 40
    doc: "`dmodel_t` (qfiles.h): the world (0) or a brush entity."
    seq:
      - id: mins
        type: quake1_bsp::vec3
        doc: Bounding box minimum.
      - id: maxs
        type: quake1_bsp::vec3
        doc: Bounding box maximum.
      - id: first_surface
        type: s4
        doc: First surface of the model in SURFACES (firstSurface).
      - id: num_surfaces
        type: s4
        doc: Number of surfaces.
      - id: first_brush
        type: s4
        doc: First brush of the model in BRUSHES (firstBrush).
      - id: num_brushes
        type: s4
        doc: Number of brushes.
  brush:
    -bspedit-size: 12
    doc: "`dbrush_t` (qfiles.h): a convex brush, for collision."
    seq:
      - id: first_side
        type: s4
        doc: First side of the brush in BRUSHSIDES (firstSide).
      - id: num_sides
        type: s4
        doc: Number of sides.
      - id: shader_num
        type: s4
        doc: Index into SHADERS; the shader gives the brush's contents.
  brush_side:
    -bspedit-size: 8
    doc: "`dbrushside_t` (qfiles.h): one side of a brush."
    seq:
      - id: plane_num
        type: s4
        doc: Index of the side's plane in PLANES, facing out of the brush (planeNum).
      - id: shader_num
        type: s4
        doc: Index into SHADERS (shaderNum).
  draw_vert:
    -bspedit-size: 44
    doc: "`drawVert_t` (qfiles.h; seed 000: Vertexes): a vertex of the drawn surfaces."
    seq:
      - id: xyz
        type: quake1_bsp::vec3
        doc: Vertex position.
      - id: st
        type: f4
        repeat: expr
        repeat-expr: 2
        doc: Texture coordinates.
      - id: lightmap
        type: f4
        repeat: expr
        repeat-expr: 2
        doc: Lightmap coordinates.
      - id: normal
        type: quake1_bsp::vec3
        doc: Vertex normal.
      - id: color
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Vertex colour, RGBA.
  draw_index:
    -bspedit-size: 4
    doc: "`int` of LUMP_DRAWINDEXES (qfiles.h; seed 000: Meshverts): a vertex offset."
    seq:
      - id: index
        type: s4
        doc: Vertex index relative to the surface's firstVert.
  fog:
    -bspedit-size: 72
    doc: "`dfog_t` (qfiles.h; seed 000: Effects): a fog volume."
    seq:
      - id: shader
        size: 64
        doc: "Fog shader name (char shader[64]): ASCII up to a NUL; raw bytes."
      - id: brush_num
        type: s4
        doc: Index of the fog brush in BRUSHES (brushNum).
      - id: visible_side
        type: s4
        doc: The brush side that is visible from outside; -1 for none (visibleSide).
  surface:
    -bspedit-size: 104
    doc: "`dsurface_t` (qfiles.h; seed 000: Faces): a drawn surface (planar, patch, mesh, flare)."
    seq:
      - id: shader_num
        type: s4
        doc: Index into SHADERS (shaderNum).
      - id: fog_num
        type: s4
        doc: Index into FOGS; -1 for none (fogNum).
      - id: surface_type
        type: s4
        doc: "MST_PLANAR 1, MST_PATCH 2, MST_TRIANGLE_SOUP 3, MST_FLARE 4 (surfaceType)."
      - id: first_vert
        type: s4
        doc: First vertex in DRAWVERTS (firstVert).
      - id: num_verts
        type: s4
        doc: Number of vertices.
      - id: first_index
        type: s4
        doc: First entry in DRAWINDEXES (firstIndex).
      - id: num_indexes
        type: s4
        doc: Number of indexes.
      - id: lightmap_num
        type: s4
        doc: Index into LIGHTMAPS; negative for none (lightmapNum).
      - id: lightmap_x
        type: s4
        doc: Corner of the surface's lightmap rectangle in its lightmap (lightmapX).
      - id: lightmap_y
        type: s4
        doc: Corner of the rectangle (lightmapY).
      - id: lightmap_width
        type: s4
        doc: Size of the rectangle (lightmapWidth).
      - id: lightmap_height
        type: s4
        doc: Size of the rectangle (lightmapHeight).
      - id: lightmap_origin
        type: quake1_bsp::vec3
        doc: World-space origin of the lightmap (lightmapOrigin).
      - id: lightmap_vecs
        type: quake1_bsp::vec3
        repeat: expr
        repeat-expr: 3
        doc: World-space lightmap s and t vectors, and for planar surfaces the normal.
      - id: patch_width
        type: s4
        doc: Patch control points across (patchWidth).
      - id: patch_height
        type: s4
        doc: Patch control points down (patchHeight).
  lightmap:
    -bspedit-size: 49152
    doc: "A lightmap of the LIGHTMAPS lump (seed 000: `ubyte[128][128][3] map`): RGB."
    seq:
      - id: map
        size: 49152
        doc: 128 x 128 RGB texels, rows of 128 * 3 bytes.
  light_grid:
    -bspedit-size: 8
    doc: |
      A point of the LIGHTGRID lump (q3map / tr_world.c: 8 bytes a point; seed 000: Lightvols):
      the light at one point of a grid over the world model's bounds, of 64 x 64 x 128
      unit cells unless worldspawn's "gridsize" says otherwise.
    seq:
      - id: ambient
        type: u1
        repeat: expr
        repeat-expr: 3
        doc: Ambient colour, RGB.
      - id: directed
        type: u1
        repeat: expr
        repeat-expr: 3
        doc: Directional colour, RGB.
      - id: lat_long
        type: u1
        repeat: expr
        repeat-expr: 2
        doc: "Direction to the light: latitude (phi) and longitude (theta), 256 steps a turn."
  visibility:
    doc: |
      The VISIBILITY lump (seed 000: Visdata): n_vecs bit vectors of sz_vecs bytes; cluster x
      sees cluster y if bit (1 << y % 8) of vecs[x * sz_vecs + y / 8] is set. Any bytes after
      the vectors are kept raw in `rest`; an empty lump (no vis) has no header.
    seq:
      - id: n_vecs
        type: s4
        doc: Number of vectors (clusters).
        if: not _io.eof
      - id: sz_vecs
        type: s4
        doc: Size of each vector, in bytes.
        if: not _io.eof
      - id: vecs
        size: n_vecs * sz_vecs
        doc: The uncompressed bit vectors.
        if: not _io.eof
      - id: rest
        size-eos: true
        doc: Bytes after the vectors (none in maps written by q3map), raw.
