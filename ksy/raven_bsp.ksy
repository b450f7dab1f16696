meta:
  id: raven_bsp
  title: Raven RBSP 1 and qfusion FBSP 1 lump records
  endian: le
  ks-version: 0.11
  imports:
    - quake1_bsp
    - quake3_bsp
doc: |
  Record types of Raven's RBSP version 1 (Jedi Outcast, Jedi Academy, Soldier of Fortune 2)
  and qfusion's FBSP version 1 (Warsow): Quake 3's format with four lightmaps (light styles)
  per surface and vertex, a brush side's drawn surface, a light grid of four styles and an
  extra LIGHTARRAY lump. Sources: Raven's Jedi Academy qfiles.h (MAXLIGHTMAPS = 4,
  `mapVert_t`, `dsurface_t`, `dbrushside_t`, `dgrid_t`) and qfusion's qfiles.h (`rdface_t`,
  `rdbrushside_t`, QF_LIGHTMAP_WIDTH); unchanged records are quake3_bsp's types. ENTITIES
  is text (entities grammar). FBSP records follow Raven's layout, as q3map2 writes both;
  note that qfusion's qfiles.h declares the surface's lightmap corners as one interleaved
  `lm_offset[4][2]` array where Raven has `lightmapX[4]` then `lightmapY[4]` (same size;
  which one FBSP files hold is not checked: the corpus has no RBSP or FBSP map).
-bspedit-families: [rbsp, fbsp]
-bspedit-lumps:
  - {lump: SHADERS, type: "quake3_bsp::shader"}
  - {lump: PLANES, type: "quake3_bsp::plane"}
  - {lump: NODES, type: "quake3_bsp::node"}
  - {lump: LEAFS, type: "quake3_bsp::leaf"}
  - {lump: LEAFSURFACES, type: "quake3_bsp::leafsurface"}
  - {lump: LEAFBRUSHES, type: "quake3_bsp::leafbrush"}
  - {lump: MODELS, type: "quake3_bsp::model"}
  - {lump: BRUSHES, type: "quake3_bsp::brush"}
  - {lump: BRUSHSIDES, type: brush_side}
  - {lump: DRAWVERTS, type: draw_vert}
  - {lump: DRAWINDEXES, type: "quake3_bsp::draw_index"}
  - {lump: FOGS, type: "quake3_bsp::fog"}
  - {lump: SURFACES, type: surface}
  - {lump: LIGHTMAPS, type: "quake3_bsp::lightmap", families: [rbsp]}
  - {lump: LIGHTMAPS, type: lightmap_512, families: [fbsp]}
  - {lump: LIGHTGRID, type: light_grid}
  - {lump: VISIBILITY, type: "quake3_bsp::visibility", whole: true}
  - {lump: LIGHTARRAY, type: light_array}
types:
  brush_side:
    -bspedit-size: 12
    doc: "RBSP `dbrushside_t` / qfusion `rdbrushside_t` (qfiles.h): Quake 3's brush side plus its drawn surface."
    seq:
      - id: plane_num
        type: s4
        doc: Index of the side's plane in PLANES, facing out of the brush (planeNum).
      - id: shader_num
        type: s4
        doc: Index into SHADERS (shaderNum).
      - id: draw_surf_num
        type: s4
        doc: Index of the surface drawn for this side in SURFACES (drawSurfNum).
  draw_vert:
    -bspedit-size: 80
    doc: "RBSP `mapVert_t` / FBSP `dvertex_t` (qfiles.h): a vertex with four lightmap styles."
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
        repeat-expr: 8
        doc: "lightmap[MAXLIGHTMAPS][2]: lightmap coordinates for each of the 4 styles."
      - id: normal
        type: quake1_bsp::vec3
        doc: Vertex normal.
      - id: color
        type: u1
        repeat: expr
        repeat-expr: 16
        doc: "color[MAXLIGHTMAPS][4]: RGBA vertex colour for each of the 4 styles."
  surface:
    -bspedit-size: 148
    doc: "RBSP `dsurface_t` / qfusion `rdface_t` (qfiles.h): Quake 3's surface with four lightmap styles."
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
      - id: lightmap_styles
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Light style of each lightmap (lightmapStyles; 255 = none).
      - id: vertex_styles
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Light style of each vertex colour set (vertexStyles; 255 = none).
      - id: lightmap_num
        type: s4
        repeat: expr
        repeat-expr: 4
        doc: Index into LIGHTMAPS of each style's lightmap; negative for none (lightmapNum).
      - id: lightmap_x
        type: s4
        repeat: expr
        repeat-expr: 4
        doc: Corner of each style's lightmap rectangle (lightmapX).
      - id: lightmap_y
        type: s4
        repeat: expr
        repeat-expr: 4
        doc: Corner of each style's lightmap rectangle (lightmapY).
      - id: lightmap_width
        type: s4
        doc: Size of the lightmap rectangles (lightmapWidth).
      - id: lightmap_height
        type: s4
        doc: Size of the lightmap rectangles (lightmapHeight).
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
  lightmap_512:
    -bspedit-size: 786432
    doc: |
      A lightmap of an FBSP LIGHTMAPS lump: 512 x 512 RGB texels (qfusion's qfiles.h:
      QF_LIGHTMAP_WIDTH = QF_LIGHTMAP_HEIGHT = 512; RBSP keeps Quake 3's 128).
    seq:
      - id: map
        size: 786432
        doc: 512 x 512 RGB texels, rows of 512 * 3 bytes.
  light_grid:
    -bspedit-size: 30
    doc: "RBSP `dgrid_t` / FBSP `dgridlight_t` (qfiles.h): a light grid point of 4 styles."
    seq:
      - id: ambient
        type: u1
        repeat: expr
        repeat-expr: 12
        doc: "ambientLight[MAXLIGHTMAPS][3]: ambient RGB of each style."
      - id: directed
        type: u1
        repeat: expr
        repeat-expr: 12
        doc: "directLight[MAXLIGHTMAPS][3]: directional RGB of each style."
      - id: styles
        type: u1
        repeat: expr
        repeat-expr: 4
        doc: Light style of each set (255 = none).
      - id: lat_long
        type: u1
        repeat: expr
        repeat-expr: 2
        doc: "Direction to the light: latitude and longitude, 256 steps a turn."
  light_array:
    -bspedit-size: 2
    doc: |
      An entry of the LIGHTARRAY lump (RBSP/FBSP qfiles.h: `unsigned short`): for each cell of
      the light grid, the index of its point in LIGHTGRID (identical points are shared).
    seq:
      - id: grid_index
        type: u2
        doc: Index into LIGHTGRID.
