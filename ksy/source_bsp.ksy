meta:
  id: source_bsp
  title: Source engine BSP (VBSP 17-25) lump record types
  endian:
    switch-on: big_endian
    cases:
      false: le
      true: be
  ks-version: 0.11
doc: |
  Record types of the Source engine's BSP lumps (VBSP 17-24, and Strata Source's VBSP 25).
  A types library: the top level reads nothing. Sources: the seed documents 002 (Japanese)
  and 003 (Russian) translations of Valve's "Source BSP File Format" article, and Valve's
  public/bspfile.h of source-sdk-2013 for the fields they leave out. The Strata (v25) widened
  records follow the Strata wiki's "BSP Version 25" page
  (https://wiki.stratasource.org/modding/formats/bsp-v25) and the record sizes found in a
  real v25 map (corpus: bsptool_momentum_mp_lobby_v25.bsp); where a field layout is only
  inferred from the size, the type's doc says so. Where bsp_tool's Strata branch (a
  third-party reading) disagrees with the wiki, the wiki is followed and the type says so.
  PRIMINDICES of v25 (lump version 1) is not described: the wiki gives no struct for it.
  Byte order: the `big_endian` parameter. PC maps (VBSP) are little-endian; console maps
  (PSBV: Xbox 360, PS3) store the same records big-endian. The nested types' generated
  readers take it as `_is_le` (True for PC maps).
-bspedit-families: [source]
-bspedit-lumps:
  - {lump: PLANES, type: plane}
  - {lump: TEXDATA, type: texdata}
  - {lump: VERTEXES, type: vec3}
  - {lump: VISIBILITY, type: visibility, whole: true}
  - {lump: NODES, type: node, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: NODES, type: node_strata, map-versions: [25]}
  - {lump: TEXINFO, type: texinfo}
  - {lump: FACES, type: face, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: FACES, type: face_strata, map-versions: [25]}
  - {lump: LEAFS, type: leaf_v0, lump-version: 0, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAFS, type: leaf_v1, lump-version: 1, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAFS, type: leaf_strata, map-versions: [25]}
  - {lump: FACEIDS, type: faceid, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: FACEIDS, type: faceid_strata, map-versions: [25]}
  - {lump: EDGES, type: edge, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: EDGES, type: edge_strata, map-versions: [25]}
  - {lump: SURFEDGES, type: surfedge}
  - {lump: MODELS, type: model}
  - {lump: WORLDLIGHTS, type: worldlight_v0, lump-version: 0}
  - {lump: WORLDLIGHTS, type: worldlight_v1, lump-version: 1}
  - {lump: WORLDLIGHTS, type: worldlight_v2_strata, lump-version: 2, map-versions: [25]}
  - {lump: LEAFFACES, type: leafface, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAFFACES, type: leafface_strata, map-versions: [25]}
  - {lump: LEAFBRUSHES, type: leafbrush, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAFBRUSHES, type: leafbrush_strata, map-versions: [25]}
  - {lump: BRUSHES, type: brush}
  - {lump: BRUSHSIDES, type: brush_side, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: BRUSHSIDES, type: brush_side_strata, map-versions: [25]}
  - {lump: AREAS, type: area}
  - {lump: AREAPORTALS, type: areaportal, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: AREAPORTALS, type: areaportal_strata, map-versions: [25]}
  - {lump: DISPINFO, type: dispinfo, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: DISPINFO, type: dispinfo_strata, lump-version: 1, map-versions: [25]}
  - {lump: ORIGINALFACES, type: face, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: ORIGINALFACES, type: face_strata, map-versions: [25]}
  - {lump: VERTNORMALS, type: vec3}
  - {lump: VERTNORMALINDICES, type: vertnormalindex, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: VERTNORMALINDICES, type: vertnormalindex_strata, map-versions: [25]}
  - {lump: DISP_VERTS, type: disp_vert}
  - {lump: LEAFWATERDATA, type: leafwaterdata, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAFWATERDATA, type: leafwaterdata_strata, lump-version: 1, map-versions: [25]}
  - {lump: PRIMITIVES, type: primitive, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: PRIMITIVES, type: primitive_strata, lump-version: 1, map-versions: [25]}
  - {lump: PRIMVERTS, type: vec3}
  - {lump: PRIMINDICES, type: primindex, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: CLIPPORTALVERTS, type: vec3}
  - {lump: CUBEMAPS, type: cubemap_sample}
  - {lump: TEXDATA_STRING_DATA, type: texdata_string_data, whole: true}
  - {lump: TEXDATA_STRING_TABLE, type: texdata_string_table_entry}
  - {lump: OVERLAYS, type: overlay, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: OVERLAYS, type: overlay, lump-version: 0, map-versions: [25]}
  - {lump: OVERLAYS, type: overlay_v1_strata, lump-version: 1, map-versions: [25]}
  - {lump: OVERLAYS, type: overlay_v2_strata, lump-version: 2, map-versions: [25]}
  - {lump: OVERLAYS, type: overlays_v3_strata, lump-version: 3, map-versions: [25], whole: true}
  - {lump: LEAFMINDISTTOWATER, type: leafmindisttowater}
  - {lump: FACE_MACRO_TEXTURE_INFO, type: face_macro_texture_info}
  - {lump: DISP_TRIS, type: disp_tri}
  - {lump: WATEROVERLAYS, type: wateroverlay, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: WATEROVERLAYS, type: wateroverlay_strata, lump-version: 1, map-versions: [25]}
  - {lump: LEAF_AMBIENT_INDEX_HDR, type: leaf_ambient_index, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAF_AMBIENT_INDEX_HDR, type: leaf_ambient_index_strata, map-versions: [25]}
  - {lump: LEAF_AMBIENT_INDEX, type: leaf_ambient_index, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: LEAF_AMBIENT_INDEX, type: leaf_ambient_index_strata, map-versions: [25]}
  - {lump: WORLDLIGHTS_HDR, type: worldlight_v0, lump-version: 0}
  - {lump: WORLDLIGHTS_HDR, type: worldlight_v1, lump-version: 1}
  - {lump: WORLDLIGHTS_HDR, type: worldlight_v2_strata, lump-version: 2, map-versions: [25]}
  - {lump: LEAF_AMBIENT_LIGHTING_HDR, type: leaf_ambient_lighting}
  - {lump: LEAF_AMBIENT_LIGHTING, type: leaf_ambient_lighting}
  - {lump: FACES_HDR, type: face, map-versions: [17, 18, 19, 20, 21, 22, 23, 24]}
  - {lump: FACES_HDR, type: face_strata, map-versions: [25]}
  - {lump: MAP_FLAGS, type: map_flags}
  - {lump: OVERLAY_FADES, type: overlay_fade}
  - {lump: OVERLAY_SYSTEM_LEVELS, type: overlay_system_level}
  - {lump: LIGHTING, type: lighting, lump-version: 1, whole: true}
  - {lump: LIGHTING_HDR, type: lighting, lump-version: 1, whole: true}
  - {lump: OCCLUSION, type: occlusion_v1, lump-version: 1, whole: true}
  - {lump: OCCLUSION, type: occlusion_v2, lump-version: 2, whole: true}
  - {lump: PHYSCOLLIDE, type: phys_collide, lump-version: 0, whole: true}
  - {lump: PHYSDISP, type: phys_disp, lump-version: 0, whole: true}
  - {lump: PHYSDISP, type: phys_disp_v2, lump-version: 2, map-versions: [25], whole: true}
  - {lump: DISP_LIGHTMAP_SAMPLE_POSITIONS, type: disp_lightmap_sample_positions, lump-version: 0, whole: true}
  - {lump: DISP_LIGHTMAP_ALPHAS, type: disp_lightmap_alphas, lump-version: 0, whole: true}
params:
  - id: big_endian
    type: bool
    doc: The map is a console (PSBV) map, stored big-endian.
types:
  # ---- shared small types ----
  vec3:
    -bspedit-size: 12
    doc: A Vector of three floats (x, y, z). Used by VERTEXES, VERTNORMALS, PRIMVERTS and CLIPPORTALVERTS records (bspfile.h dvertex_t, Vector).
    seq:
      - {id: x, type: f4, doc: "X coordinate."}
      - {id: y, type: f4, doc: "Y coordinate."}
      - {id: z, type: f4, doc: "Z coordinate."}
  vec3_s2:
    -bspedit-size: 6
    doc: Three shorts, a coarse integer bounding-box corner (bspfile.h short mins[3] / maxs[3]).
    seq:
      - {id: x, type: s2, doc: "X coordinate."}
      - {id: y, type: s2, doc: "Y coordinate."}
      - {id: z, type: s2, doc: "Z coordinate."}
  vec2:
    -bspedit-size: 8
    doc: A Vector2D of two floats (mathlib Vector2D).
    seq:
      - {id: x, type: f4, doc: "X (or U) component."}
      - {id: y, type: f4, doc: "Y (or V) component."}
  color_rgb_exp32:
    -bspedit-size: 4
    doc: ColorRGBExp32, a colour as r, g, b bytes times 2 to the power of a signed exponent (bspfile.h).
    seq:
      - {id: r, type: u1, doc: "Red mantissa."}
      - {id: g, type: u1, doc: "Green mantissa."}
      - {id: b, type: u1, doc: "Blue mantissa."}
      - {id: exponent, type: s1, doc: "Shared power-of-two exponent."}
  compressed_light_cube:
    -bspedit-size: 24
    doc: CompressedLightCube, ambient light arriving from the six axis directions (+X, -X, +Y, -Y, +Z, -Z) (bspfile.h).
    seq:
      - id: color
        type: color_rgb_exp32
        repeat: expr
        repeat-expr: 6
        doc: One ColorRGBExp32 per axis direction.
  # ---- lumps ----
  plane:
    -bspedit-size: 20
    doc: dplane_t, a plane (PLANES, lump 1); seed 002/003 "Planes".
    seq:
      - {id: normal, type: vec3, doc: "Unit normal vector."}
      - {id: dist, type: f4, doc: "Distance from the origin along the normal."}
      - {id: type, type: s4, doc: "Plane axis identifier (PLANE_X ... PLANE_ANYZ)."}
  texdata:
    -bspedit-size: 32
    doc: dtexdata_t (TEXDATA, lump 2); seed 002/003 "Texdata".
    seq:
      - {id: reflectivity, type: vec3, doc: "RGB reflectivity of the material."}
      - {id: name_string_table_id, type: s4, doc: "Index into TEXDATA_STRING_TABLE."}
      - {id: width, type: s4, doc: "Source image width."}
      - {id: height, type: s4, doc: "Source image height."}
      - {id: view_width, type: s4, doc: "View width."}
      - {id: view_height, type: s4, doc: "View height."}
  node:
    -bspedit-size: 32
    doc: dnode_t, a BSP tree node (NODES, lump 5); seed 002/003 "Nodes and leaves".
    seq:
      - {id: planenum, type: s4, doc: "Index into PLANES."}
      - {id: children, type: s4, repeat: expr, repeat-expr: 2, doc: "Child nodes; negative values are -(leaf + 1)."}
      - {id: mins, type: vec3_s2, doc: "Bounding box minimum, for frustum culling."}
      - {id: maxs, type: vec3_s2, doc: "Bounding box maximum."}
      - {id: firstface, type: u2, doc: "Index into FACES."}
      - {id: numfaces, type: u2, doc: "Face count."}
      - {id: area, type: s2, doc: "Area of all children if they share one, else -1."}
      - {id: padding, type: s2, doc: "Pads to a 32-byte record."}
  node_strata:
    -bspedit-size: 48
    doc: Strata Source v25 dnode_t, NODES widened to 32-bit indices and float bounds (Strata "BSP Version 25"; layout checked against the corpus v25 map).
    seq:
      - {id: planenum, type: s4, doc: "Index into PLANES."}
      - {id: children, type: s4, repeat: expr, repeat-expr: 2, doc: "Child nodes; negative values are -(leaf + 1)."}
      - {id: mins, type: vec3, doc: "Bounding box minimum (floats in v25)."}
      - {id: maxs, type: vec3, doc: "Bounding box maximum."}
      - {id: firstface, type: u4, doc: "Index into FACES."}
      - {id: numfaces, type: u4, doc: "Face count."}
      - {id: area, type: s2, doc: "Area of all children if they share one, else -1."}
      - {id: padding, type: s2, doc: "Pads to a 48-byte record."}
  texinfo:
    -bspedit-size: 72
    doc: texinfo_t (TEXINFO, lump 6); seed 002/003 "Texinfo".
    seq:
      - {id: texture_vecs, type: f4, repeat: expr, repeat-expr: 8, doc: "textureVecsTexelsPerWorldUnits[2][4]: s and t vectors (xyz, offset) mapping world to texels."}
      - {id: lightmap_vecs, type: f4, repeat: expr, repeat-expr: 8, doc: "lightmapVecsLuxelsPerWorldUnits[2][4]: the same for lightmap luxels."}
      - {id: flags, type: s4, doc: "SURF_ flags."}
      - {id: texdata, type: s4, doc: "Index into TEXDATA, or -1."}
  face:
    -bspedit-size: 56
    doc: dface_t (FACES lump 7, ORIGINALFACES lump 27, FACES_HDR lump 58); seed 002/003 "Faces".
    seq:
      - {id: planenum, type: u2, doc: "Index into PLANES."}
      - {id: side, type: u1, doc: "Faces opposite to the plane's direction when 1."}
      - {id: on_node, type: u1, doc: "1 when the face is on a node, 0 when in a leaf."}
      - {id: firstedge, type: s4, doc: "Index into SURFEDGES."}
      - {id: numedges, type: s2, doc: "Number of surfedges."}
      - {id: texinfo, type: s2, doc: "Index into TEXINFO. In ORIGINALFACES it can run past TEXINFO's end (seen in every corpus map): the compiler's index before it compacted TEXINFO."}
      - {id: dispinfo, type: s2, doc: "Index into DISPINFO, or -1."}
      - {id: surface_fog_volume_id, type: s2, doc: "Fog volume id."}
      - {id: styles, type: u1, repeat: expr, repeat-expr: 4, doc: "Switchable lighting styles (255 is none)."}
      - {id: lightofs, type: s4, doc: "Offset into LIGHTING, or -1."}
      - {id: area, type: f4, doc: "Face area in square units."}
      - {id: lightmap_texture_mins_in_luxels, type: s4, repeat: expr, repeat-expr: 2, doc: "Lightmap texture minimum, in luxels."}
      - {id: lightmap_texture_size_in_luxels, type: s4, repeat: expr, repeat-expr: 2, doc: "Lightmap texture size, in luxels."}
      - {id: orig_face, type: s4, doc: "Index into ORIGINALFACES this face was split from."}
      - {id: num_prims, type: u2, doc: "Primitive count; the top bit disables dynamic shadows (bspfile.h)."}
      - {id: first_prim_id, type: u2, doc: "Index into PRIMITIVES."}
      - {id: smoothing_groups, type: u4, doc: "Lightmap smoothing group bits."}
    instances:
      prim_count:
        value: num_prims & 0x7fff
        doc: The number of primitives (num_prims without its top bit).
      dynamic_shadows_disabled:
        value: (num_prims & 0x8000) != 0
        doc: The top bit of num_prims.
  face_strata:
    -bspedit-size: 72
    doc: |
      Strata Source v25 dface_t (FACES, ORIGINALFACES, FACES_HDR), indices widened to 32 bits
      (Strata "BSP Version 25"). Two padding bytes follow on_node so that firstedge is 4-byte
      aligned (inferred from the 72-byte records of the corpus v25 map: under this reading its
      padding is zero, side and on_node are 0 or 1, and firstedge + numedges, texinfo and
      planenum stay within their lumps).
    seq:
      - {id: planenum, type: u4, doc: "Index into PLANES."}
      - {id: side, type: u1, doc: "Faces opposite to the plane's direction when 1."}
      - {id: on_node, type: u1, doc: "1 when the face is on a node, 0 when in a leaf."}
      - {id: padding, type: u2, doc: "Alignment padding."}
      - {id: firstedge, type: s4, doc: "Index into SURFEDGES."}
      - {id: numedges, type: s4, doc: "Number of surfedges."}
      - {id: texinfo, type: s4, doc: "Index into TEXINFO."}
      - {id: dispinfo, type: s4, doc: "Index into DISPINFO, or -1."}
      - {id: surface_fog_volume_id, type: s4, doc: "Fog volume id."}
      - {id: styles, type: u1, repeat: expr, repeat-expr: 4, doc: "Switchable lighting styles (255 is none)."}
      - {id: lightofs, type: s4, doc: "Offset into LIGHTING, or -1."}
      - {id: area, type: f4, doc: "Face area in square units."}
      - {id: lightmap_texture_mins_in_luxels, type: s4, repeat: expr, repeat-expr: 2, doc: "Lightmap texture minimum, in luxels."}
      - {id: lightmap_texture_size_in_luxels, type: s4, repeat: expr, repeat-expr: 2, doc: "Lightmap texture size, in luxels."}
      - {id: orig_face, type: s4, doc: "Index into ORIGINALFACES this face was split from."}
      - {id: num_prims, type: u4, doc: "Primitive count (top bit disables dynamic shadows, as in v20)."}
      - {id: first_prim_id, type: u4, doc: "Index into PRIMITIVES."}
      - {id: smoothing_groups, type: u4, doc: "Lightmap smoothing group bits."}
  leaf_v0:
    -bspedit-size: 56
    doc: dleaf_version_0_t (LEAFS lump 10, lump version 0), which carries the ambient lighting cube itself (bspfile.h; seed 002/003 "Nodes and leaves").
    seq:
      - {id: contents, type: s4, doc: "CONTENTS_ flags of the leaf."}
      - {id: cluster, type: s2, doc: "Visibility cluster, or -1."}
      - {id: area_and_flags, type: u2, doc: "C bit field: area:9, flags:7."}
      - {id: mins, type: vec3_s2, doc: "Bounding box minimum."}
      - {id: maxs, type: vec3_s2, doc: "Bounding box maximum."}
      - {id: firstleafface, type: u2, doc: "Index into LEAFFACES."}
      - {id: numleaffaces, type: u2, doc: "Leaf face count."}
      - {id: firstleafbrush, type: u2, doc: "Index into LEAFBRUSHES."}
      - {id: numleafbrushes, type: u2, doc: "Leaf brush count."}
      - {id: leaf_water_data_id, type: s2, doc: "Index into LEAFWATERDATA, or -1."}
      - {id: ambient_lighting, type: compressed_light_cube, doc: "Precomputed ambient light at the leaf (version 0 only)."}
      - {id: padding, type: s2, doc: "Pads to a 56-byte record."}
    instances:
      area:
        value: area_and_flags & 0x1ff
        doc: The area (low 9 bits).
      flags:
        value: area_and_flags >> 9
        doc: The leaf flags (high 7 bits).
  leaf_v1:
    -bspedit-size: 32
    doc: dleaf_t (LEAFS lump 10, lump version 1); ambient lighting lives in LEAF_AMBIENT_LIGHTING (seed 002/003 "Nodes and leaves").
    seq:
      - {id: contents, type: s4, doc: "CONTENTS_ flags of the leaf."}
      - {id: cluster, type: s2, doc: "Visibility cluster, or -1."}
      - {id: area_and_flags, type: u2, doc: "C bit field: area:9, flags:7."}
      - {id: mins, type: vec3_s2, doc: "Bounding box minimum."}
      - {id: maxs, type: vec3_s2, doc: "Bounding box maximum."}
      - {id: firstleafface, type: u2, doc: "Index into LEAFFACES."}
      - {id: numleaffaces, type: u2, doc: "Leaf face count."}
      - {id: firstleafbrush, type: u2, doc: "Index into LEAFBRUSHES."}
      - {id: numleafbrushes, type: u2, doc: "Leaf brush count."}
      - {id: leaf_water_data_id, type: s2, doc: "Index into LEAFWATERDATA, or -1."}
      - {id: padding, type: s2, doc: "Pads to a 32-byte record."}
    instances:
      area:
        value: area_and_flags & 0x1ff
        doc: The area (low 9 bits).
      flags:
        value: area_and_flags >> 9
        doc: The leaf flags (high 7 bits).
  leaf_strata:
    -bspedit-size: 56
    doc: Strata Source v25 dleaf_t (LEAFS, lump version 2 in the corpus map), 32-bit indices and float bounds, no ambient cube (Strata "BSP Version 25").
    seq:
      - {id: contents, type: s4, doc: "CONTENTS_ flags of the leaf."}
      - {id: cluster, type: s4, doc: "Visibility cluster, or -1."}
      - {id: area_and_flags, type: u4, doc: "C bit field: area:17, flags:15."}
      - {id: mins, type: vec3, doc: "Bounding box minimum."}
      - {id: maxs, type: vec3, doc: "Bounding box maximum."}
      - {id: firstleafface, type: u4, doc: "Index into LEAFFACES."}
      - {id: numleaffaces, type: u4, doc: "Leaf face count."}
      - {id: firstleafbrush, type: u4, doc: "Index into LEAFBRUSHES."}
      - {id: numleafbrushes, type: u4, doc: "Leaf brush count."}
      - {id: leaf_water_data_id, type: s4, doc: "Index into LEAFWATERDATA, or -1."}
    instances:
      area:
        value: area_and_flags & 0x1ffff
        doc: The area (low 17 bits).
      flags:
        value: area_and_flags >> 17
        doc: The leaf flags (high 15 bits).
  faceid:
    -bspedit-size: 2
    doc: dfaceid_t (FACEIDS, lump 11), the Hammer face id of a dface, also a detail prop seed (seed 002/003).
    seq:
      - {id: hammer_face_id, type: u2, doc: "Hammer's face id."}
  faceid_strata:
    -bspedit-size: 4
    doc: Strata Source v25 dfaceid_t (FACEIDS), widened to 32 bits.
    seq:
      - {id: hammer_face_id, type: u4, doc: "Hammer's face id."}
  edge:
    -bspedit-size: 4
    doc: dedge_t (EDGES, lump 12), two vertex indices (seed 002/003 "Edges").
    seq:
      - {id: v, type: u2, repeat: expr, repeat-expr: 2, doc: "Indices into VERTEXES."}
  edge_strata:
    -bspedit-size: 8
    doc: Strata Source v25 dedge_t (EDGES), widened to 32-bit vertex indices.
    seq:
      - {id: v, type: u4, repeat: expr, repeat-expr: 2, doc: "Indices into VERTEXES."}
  surfedge:
    -bspedit-size: 4
    doc: A surfedge (SURFEDGES, lump 13), a signed index into EDGES; negative means the edge is walked from its second vertex (seed 002/003 "Surfedges").
    seq:
      - {id: edge, type: s4, doc: "Signed index into EDGES."}
  model:
    -bspedit-size: 48
    doc: dmodel_t (MODELS, lump 14); model 0 is worldspawn (seed 002/003 "Models").
    seq:
      - {id: mins, type: vec3, doc: "Bounding box minimum."}
      - {id: maxs, type: vec3, doc: "Bounding box maximum."}
      - {id: origin, type: vec3, doc: "Origin, for sounds or lights."}
      - {id: headnode, type: s4, doc: "Index into NODES of the model's root."}
      - {id: firstface, type: s4, doc: "Index into FACES."}
      - {id: numfaces, type: s4, doc: "Face count."}
  worldlight_v0:
    -bspedit-size: 88
    doc: dworldlight_t as of lump version 0 (WORLDLIGHTS lump 15, WORLDLIGHTS_HDR lump 54), without shadow_cast_offset (bspfile.h dworldlight_version0_t; seed 002/003 "Worldlights").
    seq:
      - {id: origin, type: vec3, doc: "Light position."}
      - {id: intensity, type: vec3, doc: "RGB intensity."}
      - {id: normal, type: vec3, doc: "Direction, for spotlights and surface lights."}
      - {id: cluster, type: s4, doc: "Visibility cluster holding the light."}
      - {id: type, type: s4, doc: "emittype_t (surface, point, spotlight, skylight, quakelight, skyambient)."}
      - {id: style, type: s4, doc: "Light style."}
      - {id: stopdot, type: f4, doc: "Spotlight inner cone cosine."}
      - {id: stopdot2, type: f4, doc: "Spotlight outer cone cosine."}
      - {id: exponent, type: f4, doc: "Spotlight falloff exponent."}
      - {id: radius, type: f4, doc: "Cutoff radius."}
      - {id: constant_attn, type: f4, doc: "Constant attenuation."}
      - {id: linear_attn, type: f4, doc: "Linear attenuation."}
      - {id: quadratic_attn, type: f4, doc: "Quadratic attenuation."}
      - {id: flags, type: s4, doc: "DWL_FLAGS_ bits."}
      - {id: texinfo, type: s4, doc: "Index into TEXINFO (surface lights)."}
      - {id: owner, type: s4, doc: "Entity that owns the light."}
  worldlight_v1:
    -bspedit-size: 100
    doc: dworldlight_t as of lump version 1 (WORLDLIGHTS, WORLDLIGHTS_HDR), with shadow_cast_offset (bspfile.h).
    seq:
      - {id: origin, type: vec3, doc: "Light position."}
      - {id: intensity, type: vec3, doc: "RGB intensity."}
      - {id: normal, type: vec3, doc: "Direction, for spotlights and surface lights."}
      - {id: shadow_cast_offset, type: vec3, doc: "Offset of the shadow-casting position (version 1)."}
      - {id: cluster, type: s4, doc: "Visibility cluster holding the light."}
      - {id: type, type: s4, doc: "emittype_t."}
      - {id: style, type: s4, doc: "Light style."}
      - {id: stopdot, type: f4, doc: "Spotlight inner cone cosine."}
      - {id: stopdot2, type: f4, doc: "Spotlight outer cone cosine."}
      - {id: exponent, type: f4, doc: "Spotlight falloff exponent."}
      - {id: radius, type: f4, doc: "Cutoff radius."}
      - {id: constant_attn, type: f4, doc: "Constant attenuation."}
      - {id: linear_attn, type: f4, doc: "Linear attenuation."}
      - {id: quadratic_attn, type: f4, doc: "Quadratic attenuation."}
      - {id: flags, type: s4, doc: "DWL_FLAGS_ bits."}
      - {id: texinfo, type: s4, doc: "Index into TEXINFO (surface lights)."}
      - {id: owner, type: s4, doc: "Entity that owns the light."}
  leafface:
    -bspedit-size: 2
    doc: A LEAFFACES (lump 16) entry, an index into FACES (seed 002/003).
    seq:
      - {id: face, type: u2, doc: "Index into FACES."}
  leafface_strata:
    -bspedit-size: 4
    doc: Strata Source v25 LEAFFACES entry, widened to 32 bits.
    seq:
      - {id: face, type: u4, doc: "Index into FACES."}
  leafbrush:
    -bspedit-size: 2
    doc: A LEAFBRUSHES (lump 17) entry, an index into BRUSHES (seed 002/003).
    seq:
      - {id: brush, type: u2, doc: "Index into BRUSHES."}
  leafbrush_strata:
    -bspedit-size: 4
    doc: Strata Source v25 LEAFBRUSHES entry, widened to 32 bits.
    seq:
      - {id: brush, type: u4, doc: "Index into BRUSHES."}
  brush:
    -bspedit-size: 12
    doc: dbrush_t (BRUSHES, lump 18); seed 002/003 "Brushes and brushsides".
    seq:
      - {id: firstside, type: s4, doc: "Index into BRUSHSIDES."}
      - {id: numsides, type: s4, doc: "Side count."}
      - {id: contents, type: s4, doc: "CONTENTS_ flags."}
  brush_side:
    -bspedit-size: 8
    doc: |
      dbrushside_t (BRUSHSIDES, lump 19); seed 002/003. source-sdk-2013 declares `short bevel`;
      Alien Swarm, Portal 2 and CS:GO split it into the bytes bevel and thin, read here.
    seq:
      - {id: planenum, type: u2, doc: "Index into PLANES, facing out of the leaf."}
      - {id: texinfo, type: s2, doc: "Index into TEXINFO."}
      - {id: dispinfo, type: s2, doc: "Index into DISPINFO."}
      - {id: bevel, type: u1, doc: "1 when the side is a bevel plane."}
      - {id: thin, type: u1, doc: "1 when the side is thin (0 in games with a short bevel)."}
  brush_side_strata:
    -bspedit-size: 16
    doc: Strata Source v25 dbrushside_t (BRUSHSIDES), 32-bit indices and two padding bytes.
    seq:
      - {id: planenum, type: u4, doc: "Index into PLANES."}
      - {id: texinfo, type: s4, doc: "Index into TEXINFO."}
      - {id: dispinfo, type: s4, doc: "Index into DISPINFO."}
      - {id: bevel, type: u1, doc: "1 when the side is a bevel plane."}
      - {id: thin, type: u1, doc: "1 when the side is thin."}
      - {id: padding, type: u2, doc: "Alignment padding."}
  area:
    -bspedit-size: 8
    doc: darea_t (AREAS, lump 20); seed 002/003 "Areas".
    seq:
      - {id: numareaportals, type: s4, doc: "Area portal count."}
      - {id: firstareaportal, type: s4, doc: "Index into AREAPORTALS."}
  areaportal:
    -bspedit-size: 12
    doc: dareaportal_t (AREAPORTALS, lump 21); seed 002/003 "Areas".
    seq:
      - {id: portal_key, type: u2, doc: "Entities have a key that matches this portal."}
      - {id: otherarea, type: u2, doc: "The area this portal leads to."}
      - {id: first_clip_portal_vert, type: u2, doc: "Index into CLIPPORTALVERTS."}
      - {id: num_clip_portal_verts, type: u2, doc: "Clip portal vertex count."}
      - {id: planenum, type: s4, doc: "Index into PLANES."}
  areaportal_strata:
    -bspedit-size: 20
    doc: Strata Source v25 dareaportal_t (AREAPORTALS), each field widened to 32 bits (layout inferred from the 20-byte records).
    seq:
      - {id: portal_key, type: u4, doc: "Entities have a key that matches this portal."}
      - {id: otherarea, type: u4, doc: "The area this portal leads to."}
      - {id: first_clip_portal_vert, type: u4, doc: "Index into CLIPPORTALVERTS."}
      - {id: num_clip_portal_verts, type: u4, doc: "Clip portal vertex count."}
      - {id: planenum, type: s4, doc: "Index into PLANES."}
  disp_sub_neighbor:
    -bspedit-size: 6
    doc: CDispSubNeighbor, one half of an edge neighbour of a displacement (bspfile.h), padded to 6 bytes.
    seq:
      - {id: neighbor, type: u2, doc: "Index into DISPINFO, 0xffff for none."}
      - {id: neighbor_orientation, type: u1, doc: "Orientation of the neighbour relative to us."}
      - {id: span, type: u1, doc: "How the neighbour fits onto our edge (NeighborSpan)."}
      - {id: neighbor_span, type: u1, doc: "How we fit onto the neighbour's edge."}
      - {id: padding, type: u1, doc: "Alignment padding."}
  disp_neighbor:
    -bspedit-size: 12
    doc: CDispNeighbor, the two sub-neighbours along one edge (bspfile.h).
    seq:
      - {id: sub_neighbors, type: disp_sub_neighbor, repeat: expr, repeat-expr: 2, doc: "The two halves of the edge."}
  disp_corner_neighbors:
    -bspedit-size: 10
    doc: CDispCornerNeighbors, the displacements touching one corner (bspfile.h), padded to 10 bytes.
    seq:
      - {id: neighbors, type: u2, repeat: expr, repeat-expr: 4, doc: "Indices into DISPINFO."}
      - {id: num_neighbors, type: u1, doc: "How many of neighbors are used."}
      - {id: padding, type: u1, doc: "Alignment padding."}
  dispinfo:
    -bspedit-size: 176
    doc: ddispinfo_t (DISPINFO, lump 26); seed 002/003 "Displacements", neighbour structures from bspfile.h.
    seq:
      - {id: start_position, type: vec3, doc: "Start position, used for orientation."}
      - {id: disp_vert_start, type: s4, doc: "Index into DISP_VERTS (and DISP_LIGHTMAP_ALPHAS)."}
      - {id: disp_tri_start, type: s4, doc: "Index into DISP_TRIS."}
      - {id: power, type: s4, doc: "Subdivision power (2, 3 or 4)."}
      - {id: min_tess, type: s4, doc: "Minimum tessellation allowed."}
      - {id: smoothing_angle, type: f4, doc: "Lighting smoothing angle."}
      - {id: contents, type: s4, doc: "Surface contents."}
      - {id: map_face, type: u2, doc: "Index into FACES of the face this displacement replaces."}
      - {id: padding, type: u2, doc: "Alignment padding."}
      - {id: lightmap_alpha_start, type: s4, doc: "Index into DISP_LIGHTMAP_ALPHAS."}
      - {id: lightmap_sample_position_start, type: s4, doc: "Index into DISP_LIGHTMAP_SAMPLE_POSITIONS."}
      - {id: edge_neighbors, type: disp_neighbor, repeat: expr, repeat-expr: 4, doc: "Neighbours along each edge."}
      - {id: corner_neighbors, type: disp_corner_neighbors, repeat: expr, repeat-expr: 4, doc: "Neighbours at each corner."}
      - {id: allowed_verts, type: u4, repeat: expr, repeat-expr: 10, doc: "Bit vector of active vertices (ALLOWEDVERTS_SIZE = 10)."}
  vertnormalindex:
    -bspedit-size: 2
    doc: A VERTNORMALINDICES (lump 31) entry, an index into VERTNORMALS (seed 002/003).
    seq:
      - {id: vertnormal, type: u2, doc: "Index into VERTNORMALS."}
  vertnormalindex_strata:
    -bspedit-size: 4
    doc: Strata Source v25 VERTNORMALINDICES entry, widened to 32 bits.
    seq:
      - {id: vertnormal, type: u4, doc: "Index into VERTNORMALS."}
  disp_vert:
    -bspedit-size: 20
    doc: CDispVert (DISP_VERTS, lump 33); seed 002/003 "Displacements".
    seq:
      - {id: vec, type: vec3, doc: "Normalised offset direction from the flat surface."}
      - {id: dist, type: f4, doc: "Offset distance."}
      - {id: alpha, type: f4, doc: "Alpha blend value."}
  disp_tri:
    -bspedit-size: 2
    doc: CDispTri (DISP_TRIS, lump 48), triangle tags (seed 002/003).
    seq:
      - {id: tags, type: u2, doc: "DISPTRI_TAG_ bits (surface, walkable, buildable, ...)."}
  leafwaterdata:
    -bspedit-size: 12
    doc: dleafwaterdata_t (LEAFWATERDATA, lump 36), bspfile.h.
    seq:
      - {id: surface_z, type: f4, doc: "Height of the water surface."}
      - {id: min_z, type: f4, doc: "Bottom of the water volume."}
      - {id: surface_tex_info_id, type: s2, doc: "Index into TEXINFO of the water surface."}
      - {id: padding, type: u2, doc: "Alignment padding."}
  primitive:
    -bspedit-size: 10
    doc: dprimitive_t (PRIMITIVES, lump 37), bspfile.h; seed 002/003 mention it with t-junction fixes.
    seq:
      - {id: type, type: u1, doc: "PRIM_TRILIST (0) or PRIM_TRISTRIP (1)."}
      - {id: padding, type: u1, doc: "Alignment padding."}
      - {id: first_index, type: u2, doc: "Index into PRIMINDICES."}
      - {id: index_count, type: u2, doc: "Index count."}
      - {id: first_vert, type: u2, doc: "Index into PRIMVERTS."}
      - {id: vert_count, type: u2, doc: "Vertex count."}
  primindex:
    -bspedit-size: 2
    doc: A PRIMINDICES (lump 39) entry, an index into PRIMVERTS (bspfile.h).
    seq:
      - {id: vert, type: u2, doc: "Index into PRIMVERTS."}
  cubemap_sample:
    -bspedit-size: 16
    doc: dcubemapsample_t (CUBEMAPS, lump 42); seed 002/003 "Cubemap".
    seq:
      - {id: origin, type: s4, repeat: expr, repeat-expr: 3, doc: "Position, integer coordinates."}
      - {id: size, type: s4, doc: "Resolution code (0 is the default; else 2^(size-1) pixels)."}
  texdata_string_table_entry:
    -bspedit-size: 4
    doc: A TEXDATA_STRING_TABLE (lump 44) entry, a byte offset into TEXDATA_STRING_DATA (seed 002/003 "Texdata").
    seq:
      - {id: offset, type: s4, doc: "Offset of a NUL-terminated material name in TEXDATA_STRING_DATA."}
  overlay:
    -bspedit-size: 352
    doc: doverlay_t (OVERLAYS, lump 45); seed 002/003 "Overlays". Also OVERLAYS lump version 0 of Strata v25 (the wiki calls version 0 Valve's original format).
    seq:
      - {id: id, type: s4, doc: "Overlay id."}
      - {id: texinfo, type: s2, doc: "Index into TEXINFO."}
      - {id: face_count_and_render_order, type: u2, doc: "Face count in the low 14 bits, render order in the top 2."}
      - {id: faces, type: s4, repeat: expr, repeat-expr: 64, doc: "Indices into FACES (OVERLAY_BSP_FACE_COUNT = 64)."}
      - {id: u, type: f4, repeat: expr, repeat-expr: 2, doc: "U texture coordinate range."}
      - {id: v, type: f4, repeat: expr, repeat-expr: 2, doc: "V texture coordinate range."}
      - {id: uv_points, type: vec3, repeat: expr, repeat-expr: 4, doc: "The four corner points."}
      - {id: origin, type: vec3, doc: "Overlay origin."}
      - {id: basis_normal, type: vec3, doc: "Normal of the overlay's basis."}
    instances:
      face_count:
        value: face_count_and_render_order & 0x3fff
        doc: The face count (low 14 bits).
      render_order:
        value: face_count_and_render_order >> 14
        doc: The render order (top 2 bits).
  leafmindisttowater:
    -bspedit-size: 2
    doc: A LEAFMINDISTTOWATER (lump 46) entry per leaf (bspfile.h, unsigned short).
    seq:
      - {id: min_dist, type: u2, doc: "Distance from the leaf to water."}
  face_macro_texture_info:
    -bspedit-size: 2
    doc: dfacemacrotextureinfo_t (FACE_MACRO_TEXTURE_INFO, lump 47), one per face (bspfile.h).
    seq:
      - {id: macro_texture_name_id, type: s2, doc: "Index into TEXDATA_STRING_TABLE, or -1 for none."}
  wateroverlay:
    -bspedit-size: 1120
    doc: dwateroverlay_t (WATEROVERLAYS, lump 50), bspfile.h.
    seq:
      - {id: id, type: s4, doc: "Overlay id."}
      - {id: texinfo, type: s2, doc: "Index into TEXINFO."}
      - {id: face_count_and_render_order, type: u2, doc: "Face count in the low 14 bits, render order in the top 2."}
      - {id: faces, type: s4, repeat: expr, repeat-expr: 256, doc: "Indices into FACES (WATEROVERLAY_BSP_FACE_COUNT = 256)."}
      - {id: u, type: f4, repeat: expr, repeat-expr: 2, doc: "U texture coordinate range."}
      - {id: v, type: f4, repeat: expr, repeat-expr: 2, doc: "V texture coordinate range."}
      - {id: uv_points, type: vec3, repeat: expr, repeat-expr: 4, doc: "The four corner points."}
      - {id: origin, type: vec3, doc: "Overlay origin."}
      - {id: basis_normal, type: vec3, doc: "Normal of the overlay's basis."}
  leaf_ambient_index:
    -bspedit-size: 4
    doc: dleafambientindex_t (LEAF_AMBIENT_INDEX lump 52, LEAF_AMBIENT_INDEX_HDR lump 51), one per leaf (bspfile.h).
    seq:
      - {id: ambient_sample_count, type: u2, doc: "Number of samples."}
      - {id: first_ambient_sample, type: u2, doc: "Index into LEAF_AMBIENT_LIGHTING."}
  leaf_ambient_index_strata:
    -bspedit-size: 8
    doc: Strata Source v25 dleafambientindex_t, widened to 32 bits.
    seq:
      - {id: ambient_sample_count, type: u4, doc: "Number of samples."}
      - {id: first_ambient_sample, type: u4, doc: "Index into LEAF_AMBIENT_LIGHTING."}
  leaf_ambient_lighting:
    -bspedit-size: 28
    doc: dleafambientlighting_t (LEAF_AMBIENT_LIGHTING lump 56, _HDR lump 55), bspfile.h.
    seq:
      - {id: cube, type: compressed_light_cube, doc: "Ambient light cube of the sample."}
      - {id: x, type: u1, doc: "Position within the leaf, fixed point (0-255 of the leaf's extent)."}
      - {id: y, type: u1, doc: "Y position, fixed point."}
      - {id: z, type: u1, doc: "Z position, fixed point."}
      - {id: pad, type: u1, doc: "Alignment padding."}
  map_flags:
    -bspedit-size: 4
    doc: dflagslump_t (MAP_FLAGS, lump 59), bspfile.h.
    seq:
      - {id: level_flags, type: u4, doc: "LVLFLAGS_ bits (baked static prop lighting, ...)."}
  overlay_fade:
    -bspedit-size: 8
    doc: doverlayfade_t (OVERLAY_FADES, lump 60), one per overlay (bspfile.h).
    seq:
      - {id: fade_dist_min_sq, type: f4, doc: "Squared distance where fading starts."}
      - {id: fade_dist_max_sq, type: f4, doc: "Squared distance where the overlay is gone."}
  overlay_system_level:
    -bspedit-size: 4
    doc: doverlaysystemlevel_t (OVERLAY_SYSTEM_LEVELS, lump 61), one per overlay (bspfile.h).
    seq:
      - {id: min_cpu_level, type: u1, doc: "Minimum CPU level."}
      - {id: max_cpu_level, type: u1, doc: "Maximum CPU level."}
      - {id: min_gpu_level, type: u1, doc: "Minimum GPU level."}
      - {id: max_gpu_level, type: u1, doc: "Maximum GPU level."}
  # ---- Strata Source v25, from the Strata wiki's "BSP Version 25" page ----
  # Source: https://wiki.stratasource.org/modding/formats/bsp-v25 (structs and lump versions).
  # Sizes are the C layout of the wiki's structs with natural alignment (the convention the
  # corpus v25 map shows for the other widened records, e.g. dbrushside_t's 16 bytes): each
  # field at a multiple of its own size, the struct padded to its widest member (4 here).
  # bsp_tool's Strata branch (third-party) writes some of them as packed struct formats that
  # leave that padding out; the wiki's layout is followed where they differ.
  color_rgba8:
    -bspedit-size: 4
    doc: Color, four unsigned bytes (Strata wiki "BSP Version 25", Types).
    seq:
      - {id: r, type: u1, doc: "Red."}
      - {id: g, type: u1, doc: "Green."}
      - {id: b, type: u1, doc: "Blue."}
      - {id: a, type: u1, doc: "Alpha."}
  disp_sub_neighbor_strata:
    -bspedit-size: 8
    doc: DispSubNeighbor_t of v25 (Strata wiki), a 32-bit neighbour index and three bytes; 4 + 3 = 7, padded to 8 (alignment 4).
    seq:
      - {id: neighbor, type: u4, doc: "Index into DISPINFO (0xffffffff for none, assumed as in Valve's 0xffff)."}
      - {id: neighbor_orientation, type: u1, doc: "neighborOrient: orientation of the neighbour relative to us."}
      - {id: span, type: u1, doc: "How the neighbour fits onto our edge."}
      - {id: neighbor_span, type: u1, doc: "How we fit onto the neighbour's edge."}
      - {id: padding, type: u1, doc: "Alignment padding (implicit in the C struct)."}
  disp_neighbor_strata:
    -bspedit-size: 16
    doc: DispNeighbor_t of v25 (Strata wiki), two sub-neighbours (2 x 8).
    seq:
      - {id: sub_neighbors, type: disp_sub_neighbor_strata, repeat: expr, repeat-expr: 2, doc: "The two halves of the edge."}
  disp_corner_neighbors_strata:
    -bspedit-size: 20
    doc: DispCornerNeighbors_t of v25 (Strata wiki), four 32-bit indices and a count; 16 + 1 = 17, padded to 20 (alignment 4).
    seq:
      - {id: neighbors, type: u4, repeat: expr, repeat-expr: 4, doc: "Indices into DISPINFO."}
      - {id: num_neighbors, type: u1, doc: "neighborCount: how many of neighbors are used."}
      - {id: padding, type: u1, repeat: expr, repeat-expr: 3, doc: "Alignment padding (implicit in the C struct)."}
  dispinfo_strata:
    -bspedit-size: 232
    doc: |
      ddispinfo_t of v25, DISPINFO lump version 1 (Strata wiki "BSP Version 25"). Size: 12
      (startPosition) + 9 x 4 (the ints, the float and m_iMapFace, now unsigned int, so no
      padding after it) = 48, + 4 x 16 edge neighbours = 112, + 4 x 20 corner neighbours = 192,
      + 10 x 4 allowed verts = 232. bsp_tool's Strata branch agrees on 232 (it keeps the
      neighbours as 144 raw bytes). The corpus v25 map has no displacements.
    seq:
      - {id: start_position, type: vec3, doc: "Start position, used for orientation."}
      - {id: disp_vert_start, type: s4, doc: "m_iDispVertStart: index into DISP_VERTS."}
      - {id: disp_tri_start, type: s4, doc: "m_iDispTriStart: index into DISP_TRIS."}
      - {id: power, type: s4, doc: "Subdivision power (MIN_MAP_DISP_POWER 2 to MAX_MAP_DISP_POWER 4)."}
      - {id: min_tess, type: s4, doc: "Minimum tessellation allowed."}
      - {id: smoothing_angle, type: f4, doc: "Lighting smoothing angle."}
      - {id: contents, type: s4, doc: "Surface contents."}
      - {id: map_face, type: u4, doc: "m_iMapFace: index into FACES (32-bit in v25)."}
      - {id: lightmap_alpha_start, type: s4, doc: "Index into DISP_LIGHTMAP_ALPHAS."}
      - {id: lightmap_sample_position_start, type: s4, doc: "Index into DISP_LIGHTMAP_SAMPLE_POSITIONS."}
      - {id: edge_neighbors, type: disp_neighbor_strata, repeat: expr, repeat-expr: 4, doc: "m_EdgeNeighbors: neighbours along each edge."}
      - {id: corner_neighbors, type: disp_corner_neighbors_strata, repeat: expr, repeat-expr: 4, doc: "m_CornerNeighbors: neighbours at each corner."}
      - {id: allowed_verts, type: u4, repeat: expr, repeat-expr: 10, doc: "m_AllowedVerts: bit vector of active vertices (ALLOWEDVERTS_SIZE = 10)."}
  primitive_strata:
    -bspedit-size: 20
    doc: |
      dprimitive_t of v25, PRIMITIVES lump version 1 (Strata wiki). Size: type (1 byte) + 3
      padding bytes to align the first unsigned int, + 4 x 4 = 20. bsp_tool's Strata branch
      writes "B4I" (17 bytes packed); the wiki's C struct is followed.
    seq:
      - {id: type, type: u1, doc: "PRIM_TRILIST (0) or PRIM_TRISTRIP (1)."}
      - {id: padding, type: u1, repeat: expr, repeat-expr: 3, doc: "Alignment padding (implicit in the C struct)."}
      - {id: first_index, type: u4, doc: "Index into PRIMINDICES."}
      - {id: index_count, type: u4, doc: "Index count."}
      - {id: first_vert, type: u4, doc: "Index into PRIMVERTS."}
      - {id: vert_count, type: u4, doc: "Vertex count."}
  leafwaterdata_strata:
    -bspedit-size: 12
    doc: dleafwaterdata_t of v25, LEAFWATERDATA lump version 1 (Strata wiki), surfaceTexInfoID widened to int (4 + 4 + 4 = 12, the same size as Valve's short and padding).
    seq:
      - {id: surface_z, type: f4, doc: "Height of the water surface."}
      - {id: min_z, type: f4, doc: "Bottom of the water volume."}
      - {id: surface_tex_info_id, type: s4, doc: "Index into TEXINFO of the water surface."}
  worldlight_v2_strata:
    -bspedit-size: 104
    doc: |
      dworldlight_version2_t of v25, WORLDLIGHTS / WORLDLIGHTS_HDR lump version 2 (Strata wiki).
      Size: 4 Vectors (48) + cluster (4) + type (emittype_t, an int enum: 4) = 56; mode (uint8)
      at 56, one implicit padding byte at 57 to align the uint16 _padding at 58; style at 60;
      11 more 4-byte fields = 104. (The corpus v25 map still has version 1 worldlights.)
    seq:
      - {id: origin, type: vec3, doc: "Light position."}
      - {id: intensity, type: vec3, doc: "RGB intensity."}
      - {id: normal, type: vec3, doc: "Direction, for spotlights and surface lights."}
      - {id: shadow_cast_offset, type: vec3, doc: "Offset of the shadow-casting position."}
      - {id: cluster, type: s4, doc: "Visibility cluster holding the light."}
      - {id: type, type: s4, doc: "emittype_t."}
      - {id: mode, type: u1, doc: "lightmode_t: 0 static, 1 specular, 2 bounce, 3 dynamic."}
      - {id: implicit_padding, type: u1, doc: "Alignment byte before _padding (implicit in the C struct)."}
      - {id: padding, type: u2, doc: "The struct's explicit uint16 _padding."}
      - {id: style, type: s4, doc: "Light style."}
      - {id: stopdot, type: f4, doc: "Spotlight inner cone cosine."}
      - {id: stopdot2, type: f4, doc: "Spotlight outer cone cosine."}
      - {id: exponent, type: f4, doc: "Spotlight falloff exponent."}
      - {id: radius, type: f4, doc: "Cutoff radius."}
      - {id: constant_attn, type: f4, doc: "Constant attenuation."}
      - {id: linear_attn, type: f4, doc: "Linear attenuation."}
      - {id: quadratic_attn, type: f4, doc: "Quadratic attenuation."}
      - {id: flags, type: s4, doc: "DWL_FLAGS_ bits."}
      - {id: texinfo, type: s4, doc: "Index into TEXINFO (surface lights)."}
      - {id: owner, type: s4, doc: "Entity that owns the light."}
  overlay_v1_strata:
    -bspedit-size: 356
    doc: |
      doverlay_version1_t, OVERLAYS lump version 1 of v25 (Strata wiki): Valve's doverlay_t with
      nTexInfo widened to int. Size: 4 + 4 + 2 + 2 padding (aligning aFaces) + 64 x 4 + 2 x 8
      + 4 x 12 + 12 + 12 = 356. bsp_tool's Strata branch writes "2iH64i22f" (354 packed); the
      wiki's C struct is followed. The face count / render order split is assumed to be Valve's.
    seq:
      - {id: id, type: s4, doc: "nId: overlay id."}
      - {id: texinfo, type: s4, doc: "nTexInfo: index into TEXINFO."}
      - {id: face_count_and_render_order, type: u2, doc: "Face count in the low 14 bits, render order in the top 2 (as Valve's)."}
      - {id: padding, type: u2, doc: "Alignment padding (implicit in the C struct)."}
      - {id: faces, type: s4, repeat: expr, repeat-expr: 64, doc: "Indices into FACES (OVERLAY_LEGACY_BSP_FACE_COUNT = 64)."}
      - {id: u, type: f4, repeat: expr, repeat-expr: 2, doc: "U texture coordinate range."}
      - {id: v, type: f4, repeat: expr, repeat-expr: 2, doc: "V texture coordinate range."}
      - {id: uv_points, type: vec3, repeat: expr, repeat-expr: 4, doc: "The four corner points."}
      - {id: origin, type: vec3, doc: "Overlay origin."}
      - {id: basis_normal, type: vec3, doc: "Normal of the overlay's basis."}
    instances:
      face_count:
        value: face_count_and_render_order & 0x3fff
        doc: The face count (low 14 bits).
      render_order:
        value: face_count_and_render_order >> 14
        doc: The render order (top 2 bits).
  overlay_v2_strata:
    -bspedit-size: 360
    doc: doverlay_version2_t, OVERLAYS lump version 2 of v25 (Strata wiki), overlay_v1_strata and an RGBA tint (356 + 4 = 360).
    seq:
      - {id: id, type: s4, doc: "nId: overlay id."}
      - {id: texinfo, type: s4, doc: "nTexInfo: index into TEXINFO."}
      - {id: face_count_and_render_order, type: u2, doc: "Face count in the low 14 bits, render order in the top 2 (as Valve's)."}
      - {id: padding, type: u2, doc: "Alignment padding (implicit in the C struct)."}
      - {id: faces, type: s4, repeat: expr, repeat-expr: 64, doc: "Indices into FACES (OVERLAY_LEGACY_BSP_FACE_COUNT = 64)."}
      - {id: u, type: f4, repeat: expr, repeat-expr: 2, doc: "U texture coordinate range."}
      - {id: v, type: f4, repeat: expr, repeat-expr: 2, doc: "V texture coordinate range."}
      - {id: uv_points, type: vec3, repeat: expr, repeat-expr: 4, doc: "The four corner points."}
      - {id: origin, type: vec3, doc: "Overlay origin."}
      - {id: basis_normal, type: vec3, doc: "Normal of the overlay's basis."}
      - {id: tint, type: color_rgba8, doc: "clrTint: RGBA tint (a colour-var index when the colour-var flag applies)."}
    instances:
      face_count:
        value: face_count_and_render_order & 0x3fff
        doc: The face count (low 14 bits).
      render_order:
        value: face_count_and_render_order >> 14
        doc: The render order (top 2 bits).
  overlay_v3_strata:
    -bspedit-size: 108
    doc: |
      doverlay_version3_t, one overlay of OVERLAYS lump version 3 (Strata wiki). Size: 4 + 4 +
      2 + 2 + 4 + 4 = 20, + 2 x 8 (flU, flV) + 4 x 8 (vecUVPoints, Vector2D) = 68, + 3 x 12
      (vecBasisU, vecOrigin, vecBasisNormal) = 104, + 4 (Color) = 108; no padding.
    seq:
      - {id: id, type: s4, doc: "nId: overlay id."}
      - {id: texinfo, type: s4, doc: "nTexInfo: index into TEXINFO."}
      - {id: flags, type: u2, doc: "iFlags: OVERLAY_FLAG_BASIS_FLIPPED (1), OVERLAY_FLAG_COLOR_VAR (2)."}
      - {id: render_order, type: u2, doc: "nRenderOrder."}
      - {id: face_offset, type: s4, doc: "nFaceOffset: index into the lump's face array."}
      - {id: face_count, type: s4, doc: "nFaceCount: faces this overlay uses."}
      - {id: u, type: vec2, doc: "flU: U texture coordinate range."}
      - {id: v, type: vec2, doc: "flV: V texture coordinate range."}
      - {id: uv_points, type: vec2, repeat: expr, repeat-expr: 4, doc: "vecUVPoints: the four corner points in the overlay's plane."}
      - {id: basis_u, type: vec3, doc: "vecBasisU (versions 0-2 kept it in vecUVPoints[0-2].z)."}
      - {id: origin, type: vec3, doc: "vecOrigin: overlay origin."}
      - {id: basis_normal, type: vec3, doc: "vecBasisNormal: normal of the overlay's basis."}
      - {id: tint, type: color_rgba8, doc: "clrTint: RGBA tint."}
    instances:
      basis_flipped:
        value: (flags & 1) != 0
        doc: OVERLAY_FLAG_BASIS_FLIPPED, cross(basis_normal, basis_u) is inverted.
      color_var:
        value: (flags & 2) != 0
        doc: OVERLAY_FLAG_COLOR_VAR, the tint's rgb is an index into the clvr game lump.
  wateroverlay_strata:
    -bspedit-size: 1124
    doc: |
      dwateroverlay_t of v25, WATEROVERLAYS lump version 1 (Strata wiki): nTexInfo widened to
      int. Size: 4 + 4 + 2 + 2 padding + 256 x 4 + 2 x 8 + 4 x 12 + 12 + 12 = 1124. bsp_tool's
      Strata branch writes "2iH256i22f" (1122 packed); the wiki's C struct is followed.
    seq:
      - {id: id, type: s4, doc: "nId: overlay id."}
      - {id: texinfo, type: s4, doc: "nTexInfo: index into TEXINFO."}
      - {id: face_count_and_render_order, type: u2, doc: "Face count in the low 14 bits, render order in the top 2 (as Valve's)."}
      - {id: padding, type: u2, doc: "Alignment padding (implicit in the C struct)."}
      - {id: faces, type: s4, repeat: expr, repeat-expr: 256, doc: "Indices into FACES (WATEROVERLAY_BSP_FACE_COUNT = 256)."}
      - {id: u, type: f4, repeat: expr, repeat-expr: 2, doc: "U texture coordinate range."}
      - {id: v, type: f4, repeat: expr, repeat-expr: 2, doc: "V texture coordinate range."}
      - {id: uv_points, type: vec3, repeat: expr, repeat-expr: 4, doc: "The four corner points."}
      - {id: origin, type: vec3, doc: "Overlay origin."}
      - {id: basis_normal, type: vec3, doc: "Normal of the overlay's basis."}
  overlays_v3_strata:
    doc: |
      The OVERLAYS lump (45) at lump version 3 of v25 (Strata wiki, "Overlays version 3+"): an
      overlay count and a face count, the shared face array (indices into FACES), then the
      doverlay_version3_t records, each naming its run of the face array.
    seq:
      - {id: overlay_count, type: s4, doc: "overlayCount."}
      - {id: face_count, type: s4, doc: "faceCount: entries of the face array."}
      - {id: faces, type: s4, repeat: expr, repeat-expr: face_count, doc: "Indices into FACES."}
      - {id: overlays, type: overlay_v3_strata, repeat: expr, repeat-expr: overlay_count, doc: "The overlays."}
  # ---- variable-size lumps ----
  visibility:
    doc: |
      The VISIBILITY lump (4): dvis_t, a cluster count and a (PVS, PAS) byte offset pair per
      cluster, then the run-length compressed bit vectors those offsets point into, kept as raw
      bytes (seed 002/003 "Visibility").
    seq:
      - {id: num_clusters, type: s4, doc: "Number of visibility clusters."}
      - {id: byte_offsets, type: vis_offsets, repeat: expr, repeat-expr: num_clusters, doc: "bitofs[numclusters][2]: offsets from the lump's start."}
      - {id: rows, size-eos: true, doc: "The compressed PVS and PAS rows, as raw bytes."}
  vis_offsets:
    -bspedit-size: 8
    doc: One cluster's entry of dvis_t bitofs (DVIS_PVS, DVIS_PAS).
    seq:
      - {id: pvs, type: s4, doc: "Byte offset of the cluster's PVS row."}
      - {id: pas, type: s4, doc: "Byte offset of the cluster's PAS row."}
  texdata_string_data:
    doc: |
      The TEXDATA_STRING_DATA lump (43): NUL-terminated material names packed one after
      another; TEXDATA_STRING_TABLE holds the offset of each. Kept as raw bytes (seed 002/003
      "Texdata").
    seq:
      - {id: data, size-eos: true, doc: "The names and any padding, as raw bytes."}
  # ---- whole lumps: lighting, occlusion, physics, displacement lightmaps ----
  lighting:
    doc: |
      The LIGHTING (8) and LIGHTING_HDR (53) lumps at lump version 1 (bspfile.h
      LUMP_LIGHTING_VERSION = 1): lightmap samples, one ColorRGBExp32 (4 bytes: r, g, b, signed
      exponent) each, read here as 4-byte samples from the lump's start and a tail of 0-3 bytes;
      a face's dface_t.lightofs is a byte offset into the lump, with one average sample per
      light style just before it. A whole type, not 4-byte records, because the CS:GO branch
      stores one more byte per luxel after a face's samples (measured in
      tg1v1_am_grass2_csgo_v21.bsp: 4 + 5 bytes per luxel for a plain face, 4 + 17 for a bumped
      one; lightofs not multiples of 4; 2764721 bytes), so there the 4-byte grid is not the
      samples' grid and a fixed-size entry would call a working map corrupt. Lump version 0
      has no layout in the public headers and is not described.
    seq:
      - {id: samples, type: color_rgb_exp32, repeat: expr, repeat-expr: _io.size / 4, doc: "The lightmap samples, ColorRGBExp32 each."}
      - {id: tail, size-eos: true, doc: "The 0-3 bytes after the last whole 4-byte sample (1 byte in the CS:GO corpus map, else empty), kept as raw bytes."}
  occluder_data_v1:
    -bspedit-size: 36
    doc: doccluderdataV1_t, one func_occluder of OCCLUSION lump version 1 (bspfile.h).
    seq:
      - {id: flags, type: s4, doc: "OCCLUDER_FLAGS_INACTIVE (1) or 0."}
      - {id: firstpoly, type: s4, doc: "Index of its first polygon in the occluder polygons."}
      - {id: polycount, type: s4, doc: "Number of polygons."}
      - {id: mins, type: vec3, doc: "Bounding box minimum."}
      - {id: maxs, type: vec3, doc: "Bounding box maximum."}
  occluder_data:
    -bspedit-size: 40
    doc: doccluderdata_t, one func_occluder of OCCLUSION lump version 2 (bspfile.h LUMP_OCCLUSION_VERSION = 2).
    seq:
      - {id: flags, type: s4, doc: "OCCLUDER_FLAGS_INACTIVE (1) or 0."}
      - {id: firstpoly, type: s4, doc: "Index of its first polygon in the occluder polygons."}
      - {id: polycount, type: s4, doc: "Number of polygons."}
      - {id: mins, type: vec3, doc: "Bounding box minimum."}
      - {id: maxs, type: vec3, doc: "Bounding box maximum."}
      - {id: area, type: s4, doc: "The area the occluder is in (added in version 2)."}
  occluder_poly:
    -bspedit-size: 12
    doc: doccluderpolydata_t, one occluder polygon (bspfile.h).
    seq:
      - {id: firstvertexindex, type: s4, doc: "Index of its first entry in the vertex indices."}
      - {id: vertexcount, type: s4, doc: "Number of vertices."}
      - {id: planenum, type: s4, doc: "Index into PLANES."}
  occlusion_v1:
    doc: |
      The OCCLUSION lump (9) at lump version 1: an occluder count and doccluderdataV1_t records,
      a polygon count and doccluderpolydata_t records, a vertex index count and the indices
      (into VERTEXES). No corpus map has this version; the layout is bspfile.h's.
    seq:
      - {id: count, type: s4, doc: "Number of occluders."}
      - {id: data, type: occluder_data_v1, repeat: expr, repeat-expr: count, doc: "The occluders."}
      - {id: poly_data_count, type: s4, doc: "Number of occluder polygons."}
      - {id: poly_data, type: occluder_poly, repeat: expr, repeat-expr: poly_data_count, doc: "The occluder polygons."}
      - {id: vertex_index_count, type: s4, doc: "Number of vertex indices."}
      - {id: vertex_indices, type: s4, repeat: expr, repeat-expr: vertex_index_count, doc: "Indices into VERTEXES, the polygons' corners."}
  occlusion_v2:
    doc: |
      The OCCLUSION lump (9) at lump version 2 (bspfile.h LUMP_OCCLUSION_VERSION): an occluder
      count and doccluderdata_t records, a polygon count and doccluderpolydata_t records, a
      vertex index count and the indices (into VERTEXES). A map without occluders holds three
      zero counts (12 bytes).
    seq:
      - {id: count, type: s4, doc: "Number of occluders."}
      - {id: data, type: occluder_data, repeat: expr, repeat-expr: count, doc: "The occluders."}
      - {id: poly_data_count, type: s4, doc: "Number of occluder polygons."}
      - {id: poly_data, type: occluder_poly, repeat: expr, repeat-expr: poly_data_count, doc: "The occluder polygons."}
      - {id: vertex_index_count, type: s4, doc: "Number of vertex indices."}
      - {id: vertex_indices, type: s4, repeat: expr, repeat-expr: vertex_index_count, doc: "Indices into VERTEXES, the polygons' corners."}
  phys_collide:
    doc: |
      The PHYSCOLLIDE lump (29): the collision models of the world and the brush entities. One
      dphysmodel_t header (modelIndex, dataSize, keydataSize, solidCount) per model, each followed
      by its solids (a size, then that many bytes of the physics engine's collision data) and its
      key-values text; a header with modelIndex -1 ends the list (bspfile.h dphysmodel_t).
    seq:
      - {id: models, type: phys_model, repeat: until, repeat-until: _.model_index == -1, doc: "The models, the last one the modelIndex -1 terminator."}
      - {id: trailing, size-eos: true, doc: "Bytes after the terminator (none in the corpus), kept raw."}
  phys_model:
    doc: One model of PHYSCOLLIDE, dphysmodel_t and the data it counts (bspfile.h).
    seq:
      - {id: model_index, type: s4, doc: "modelIndex: index into MODELS, -1 for the terminator."}
      - {id: data_size, type: s4, doc: "dataSize: bytes of the solids, each with its 4-byte size (-1 in the terminator)."}
      - {id: keydata_size, type: s4, doc: "keydataSize: bytes of the key-values text."}
      - {id: solid_count, type: s4, doc: "solidCount: number of solids."}
      - {id: solids, type: phys_solid, repeat: expr, repeat-expr: solid_count, doc: "The solids."}
      - {id: key_data, size: keydata_size, doc: "Valve key-values text (solid { ... } blocks, editparams), NUL-terminated, kept as raw bytes."}
  phys_solid:
    doc: One solid of a PHYSCOLLIDE model, its size first (bspfile.h; the blob is the physics engine's collision model).
    seq:
      - {id: size, type: s4, doc: "Bytes of collision data."}
      - {id: data, size: size, doc: "The collision data, kept as raw bytes."}
  phys_disp:
    doc: |
      The PHYSDISP lump (28) at lump version 0: dphysdisp_t, a displacement count, the byte size
      of each displacement's collision blob, then the blobs (bspfile.h: "the binary blob for each
      displacement surface's virtual hull"). Lump version 2 (Strata v25) is phys_disp_v2.
    seq:
      - {id: num_displacements, type: u2, doc: "numDisplacements, one per DISPINFO record."}
      - {id: data_sizes, type: u2, repeat: expr, repeat-expr: num_displacements, doc: "dataSize[numDisplacements]: bytes of each blob."}
      - {id: blobs, size: "data_sizes[_index]", repeat: expr, repeat-expr: num_displacements, doc: "The displacements' collision blobs, kept as raw bytes."}
  phys_disp_v2:
    doc: |
      The PHYSDISP lump (28) at lump version 2 of Strata Source v25 maps: phys_disp with a u4
      count and u4 sizes. Source: bsp_tool's Strata branch (snake-biscuits/bsp_tool
      branches/strata/strata.py, PhysicsDisplacement version 2, format "I"), a third-party
      reading; the one corpus map (bsptool_momentum_mp_lobby_v25.bsp, no displacements) agrees
      only as far as its 4 bytes are a zero u4 count.
    seq:
      - {id: num_displacements, type: u4, doc: "Number of displacements, one per DISPINFO record."}
      - {id: data_sizes, type: u4, repeat: expr, repeat-expr: num_displacements, doc: "Bytes of each blob."}
      - {id: blobs, size: "data_sizes[_index]", repeat: expr, repeat-expr: num_displacements, doc: "The displacements' collision blobs, kept as raw bytes."}
  disp_lightmap_sample_position:
    doc: |
      One lightmap sample of a displacement in DISP_LIGHTMAP_SAMPLE_POSITIONS (bspfile.h: a byte
      for the triangle index, 255 meaning the next byte plus 255, then 3 bytes of barycentric
      coordinates).
    seq:
      - {id: index_low, type: u1, doc: "The triangle index, or 255 when it is 255 + index_high."}
      - {id: index_high, type: u1, if: index_low == 255, doc: "The rest of the triangle index, present after a 255."}
      - {id: barycentric, type: u1, repeat: expr, repeat-expr: 3, doc: "Barycentric coordinates in the triangle, 0-255 each."}
  disp_lightmap_sample_positions:
    doc: |
      The DISP_LIGHTMAP_SAMPLE_POSITIONS lump (34): a byte stream, for each displacement (from
      ddispinfo_t.m_iLightmapSamplePositionStart) and each of its lightmap samples, a triangle
      index and barycentric coordinates (bspfile.h). No count is stored: the samples run to the
      lump's end. Checked on the corpus: one sample per luxel of the displacement's face
      ((width + 1) * (height + 1) of dface_t's lightmap size), the coordinates summing to
      253-255.
    seq:
      - {id: samples, type: disp_lightmap_sample_position, repeat: eos, doc: "Every displacement's samples back to back."}
  disp_lightmap_alphas:
    doc: |
      The DISP_LIGHTMAP_ALPHAS lump (32): a byte stream of per-luxel alpha values of the
      displacements (ddispinfo_t.m_iLightmapAlphaStart indexes it; bspfile.h), kept as raw bytes.
      In the corpus map that has it, one byte per DISP_LIGHTMAP_SAMPLE_POSITIONS sample.
    seq:
      - {id: data, size-eos: true, doc: "The alpha bytes."}
