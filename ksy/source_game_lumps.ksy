meta:
  id: source_game_lumps
  title: Source engine game lump members (static and detail props, detail prop lighting)
  endian:
    switch-on: big_endian
    cases:
      false: le
      true: be
  ks-version: 0.11
doc: |
  Members of the Source game lump (lump 35): `dprp` (detail props), `dplt` / `dplh` (detail
  prop lighting, LDR and HDR) and the records of `sprp` (static props). Each whole type reads
  one member's (decompressed) bytes. Sources: seed 002/003 ("Game lump") name the members; the
  layouts are public/gamebspfile.h of source-sdk-2013 (GAMELUMP_DETAIL_PROPS_VERSION 4,
  GAMELUMP_DETAIL_PROP_LIGHTING_VERSION 0, StaticPropLump_t). dprp version 5 is not described:
  its record layout is not established here (no corpus map has one).
  Static props: only the records (static_prop_*) are described, one type per layout; the
  member (a model name dictionary, a leaf list whose index width depends on the version, the
  records) and the choice of layout, from the version and the record size the data implies
  (versions 7 and 10 each name two layouts), are bspedit/lumps/staticprops.py's, which reads
  the records' fields from these types. sprp is therefore not in -bspedit-game-lumps.
  Byte order: the `big_endian` parameter (true for console PSBV maps), like source_bsp. The
  three small types vec2, vec3 and color_rgb_exp32 are source_bsp's, declared again here
  rather than imported: ksc 0.11 passes no `_is_le` to another spec's types, so imported
  types of a byte-order-switched spec would read nothing.
-bspedit-families: [source]
-bspedit-game-lumps:
  - {id: dprp, type: detail_props_v4, version: 4}
  - {id: dplt, type: detail_prop_lighting, version: 0}
  - {id: dplh, type: detail_prop_lighting, version: 0}
params:
  - id: big_endian
    type: bool
    doc: The map is a console (PSBV) map, stored big-endian.
types:
  vec2:
    -bspedit-size: 8
    doc: A Vector2D of two floats (mathlib Vector2D); source_bsp's vec2.
    seq:
      - {id: x, type: f4, doc: "X (or U) component."}
      - {id: y, type: f4, doc: "Y (or V) component."}
  vec3:
    -bspedit-size: 12
    doc: A Vector of three floats (x, y, z); source_bsp's vec3.
    seq:
      - {id: x, type: f4, doc: "X coordinate."}
      - {id: y, type: f4, doc: "Y coordinate."}
      - {id: z, type: f4, doc: "Z coordinate."}
  color_rgb_exp32:
    -bspedit-size: 4
    doc: ColorRGBExp32 (bspfile.h); source_bsp's color_rgb_exp32.
    seq:
      - {id: r, type: u1, doc: "Red mantissa."}
      - {id: g, type: u1, doc: "Green mantissa."}
      - {id: b, type: u1, doc: "Blue mantissa."}
      - {id: exponent, type: s1, doc: "Shared power-of-two exponent."}
  detail_props_v4:
    doc: |
      The dprp member, version 4: the model name dictionary, the sprite dictionary and the
      detail prop records, each an int count then that many records. Bytes after the last
      record (none in well-formed members) are kept raw in `trailing`.
    seq:
      - {id: num_dict_entries, type: s4, doc: "Number of model names (DetailObjectDictLump_t)."}
      - {id: dict, type: detail_object_dict_entry, repeat: expr, repeat-expr: num_dict_entries, doc: "The model name dictionary."}
      - {id: num_sprite_dict_entries, type: s4, doc: "Number of sprite dictionary entries (DetailSpriteDictLump_t)."}
      - {id: sprite_dict, type: detail_sprite_dict_entry, repeat: expr, repeat-expr: num_sprite_dict_entries, doc: "The sprite dictionary."}
      - {id: num_detail_objects, type: s4, doc: "Number of detail props (DetailObjectLump_t)."}
      - {id: detail_objects, type: detail_object_v4, repeat: expr, repeat-expr: num_detail_objects, doc: "The detail props."}
      - {id: trailing, size-eos: true, doc: "Bytes after the last record, raw (normally none)."}
  detail_object_dict_entry:
    -bspedit-size: 128
    doc: DetailObjectDictLump_t, the .mdl name of a detail model, NUL-padded (gamebspfile.h, DETAIL_NAME_LENGTH 128).
    seq:
      - {id: name, type: str, encoding: ASCII, size: 128, doc: "Model file name, NUL-padded."}
  detail_sprite_dict_entry:
    -bspedit-size: 32
    doc: DetailSpriteDictLump_t, a sprite's rectangle and its texture coordinates (gamebspfile.h).
    seq:
      - {id: ul, type: vec2, doc: "Upper left corner, world units."}
      - {id: lr, type: vec2, doc: "Lower right corner, world units."}
      - {id: tex_ul, type: vec2, doc: "Upper left texture coordinate."}
      - {id: tex_lr, type: vec2, doc: "Lower right texture coordinate."}
  detail_object_v4:
    -bspedit-size: 52
    doc: DetailObjectLump_t, one detail prop, dprp version 4 (gamebspfile.h).
    seq:
      - {id: origin, type: vec3, doc: "Position."}
      - {id: angles, type: vec3, doc: "QAngle: pitch, yaw, roll."}
      - {id: detail_model, type: u2, doc: "Index into the model dictionary or the sprite dictionary (by type)."}
      - {id: leaf, type: u2, doc: "Index into LEAFS."}
      - {id: lighting, type: color_rgb_exp32, doc: "Lighting at the prop."}
      - {id: light_styles, type: u4, doc: "Index of the first lightstyle record in dplt / dplh."}
      - {id: light_style_count, type: u1, doc: "Number of lightstyle records."}
      - {id: sway_amount, type: u1, doc: "How much the prop sways."}
      - {id: shape_angle, type: u1, doc: "Angle parameter of shaped sprites."}
      - {id: shape_size, type: u1, doc: "Size parameter of shaped sprites."}
      - {id: orientation, type: u1, doc: "DetailPropOrientation_t (normal, screen aligned, screen vertical)."}
      - {id: padding2, size: 3, doc: "Padding (m_Padding2[3])."}
      - {id: type, type: u1, doc: "DetailPropType_t: 0 model, 1 sprite, 2 shape cross, 3 shape tri."}
      - {id: padding3, size: 3, doc: "Padding (m_Padding3[3])."}
      - {id: scale, type: f4, doc: "Scale, for sprites."}
  detail_prop_lighting:
    doc: |
      The dplt (LDR) or dplh (HDR) member, version 0: an int count, then that many
      DetailPropLightstylesLump_t records. Bytes after the last record are kept raw in
      `trailing`.
    seq:
      - {id: num_lightstyles, type: s4, doc: "Number of records."}
      - {id: lightstyles, type: detail_prop_lightstyle, repeat: expr, repeat-expr: num_lightstyles, doc: "The records."}
      - {id: trailing, size-eos: true, doc: "Bytes after the last record, raw (normally none)."}
  detail_prop_lightstyle:
    -bspedit-size: 5
    doc: DetailPropLightstylesLump_t, the lighting one light style adds to a detail prop (gamebspfile.h).
    seq:
      - {id: lighting, type: color_rgb_exp32, doc: "Light colour of the style."}
      - {id: style, type: u1, doc: "Light style number."}
  color32:
    -bspedit-size: 4
    doc: color32 (basetypes.h), an RGBA colour of four bytes.
    seq:
      - {id: r, type: u1, doc: "Red."}
      - {id: g, type: u1, doc: "Green."}
      - {id: b, type: u1, doc: "Blue."}
      - {id: a, type: u1, doc: "Alpha."}
  static_prop_v4:
    -bspedit-size: 56
    doc: |
      StaticPropLump_t of sprp version 4 (gamebspfile.h), the first layout.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
  static_prop_v5:
    -bspedit-size: 60
    doc: |
      StaticPropLump_t of sprp version 5: version 4 and a forced fade scale.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
  static_prop_v6:
    -bspedit-size: 64
    doc: |
      StaticPropLump_t of sprp version 6: version 5 and the DirectX level range.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: min_dx_level, type: u2, doc: "m_nMinDXLevel: lowest DirectX level drawing the prop (0: any)."}
      - {id: max_dx_level, type: u2, doc: "m_nMaxDXLevel: highest DirectX level drawing the prop (0: any)."}
  static_prop_v7:
    -bspedit-size: 68
    doc: |
      StaticPropLump_t of sprp version 7 as Left 4 Dead writes it (68 bytes): version 6 and a
      diffuse modulation colour. Source 2013's 72-byte version 7 is static_prop_v7_star.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: min_dx_level, type: u2, doc: "m_nMinDXLevel: lowest DirectX level drawing the prop (0: any)."}
      - {id: max_dx_level, type: u2, doc: "m_nMaxDXLevel: highest DirectX level drawing the prop (0: any)."}
      - {id: diffuse, type: color32, doc: "m_DiffuseModulation: colour and alpha the prop is tinted with."}
  static_prop_v7_star:
    -bspedit-size: 72
    doc: |
      Source 2013's rearranged StaticPropLump_t ("v7*", 72 bytes), stored as sprp version 7,
      or as 10 by TF2 and other Source 2013 multiplayer games (CS:GO's 10 is static_prop_v10):
      version 6 with the flags moved to a u32 after the DirectX levels and a lightmap size
      added. Byte 31, where the older layouts keep the flags, is alignment padding.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: padding, size: 1, doc: "Unused: alignment padding before skin (older versions keep the flags here)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: min_dx_level, type: u2, doc: "m_nMinDXLevel: lowest DirectX level drawing the prop (0: any)."}
      - {id: max_dx_level, type: u2, doc: "m_nMaxDXLevel: highest DirectX level drawing the prop (0: any)."}
      - {id: flags, type: u4, doc: "m_Flags: STATIC_PROP_* flags, widened to a u32."}
      - {id: lightmap_size, type: u2, repeat: expr, repeat-expr: 2, doc: "m_nLightmapResolutionX, m_nLightmapResolutionY: the prop's lightmap size (0: vertex lighting)."}
  static_prop_v8:
    -bspedit-size: 68
    doc: |
      StaticPropLump_t of sprp version 8: version 5, then the CPU and GPU level ranges (instead
      of the DirectX levels) and a diffuse modulation colour.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: cpu_gpu_levels, type: u1, repeat: expr, repeat-expr: 4, doc: "m_nMinCPULevel, m_nMaxCPULevel, m_nMinGPULevel, m_nMaxGPULevel (0: any)."}
      - {id: diffuse, type: color32, doc: "m_DiffuseModulation: colour and alpha the prop is tinted with."}
  static_prop_v9:
    -bspedit-size: 72
    doc: |
      StaticPropLump_t of sprp version 9: version 8 and the Xbox 360 switch.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: cpu_gpu_levels, type: u1, repeat: expr, repeat-expr: 4, doc: "m_nMinCPULevel, m_nMaxCPULevel, m_nMinGPULevel, m_nMaxGPULevel (0: any)."}
      - {id: diffuse, type: color32, doc: "m_DiffuseModulation: colour and alpha the prop is tinted with."}
      - {id: disable_x360, type: u4, doc: "m_bDisableX360: a bool and its 3 padding bytes, read as one u32 (non-zero: not drawn on Xbox 360)."}
  static_prop_v10:
    -bspedit-size: 76
    doc: |
      StaticPropLump_t of sprp version 10 as CS:GO writes it (76 bytes): version 9 and extended
      flags. The 72-byte version 10 is static_prop_v7_star.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: cpu_gpu_levels, type: u1, repeat: expr, repeat-expr: 4, doc: "m_nMinCPULevel, m_nMaxCPULevel, m_nMinGPULevel, m_nMaxGPULevel (0: any)."}
      - {id: diffuse, type: color32, doc: "m_DiffuseModulation: colour and alpha the prop is tinted with."}
      - {id: disable_x360, type: u4, doc: "m_bDisableX360: a bool and its 3 padding bytes, read as one u32 (non-zero: not drawn on Xbox 360)."}
      - {id: flags_ex, type: u4, doc: "m_FlagsEx: STATIC_PROP_FLAGS_EX_* flags."}
  static_prop_v11:
    -bspedit-size: 80
    doc: |
      StaticPropLump_t of sprp version 11 (CS:GO), also Strata's version 12: version 10 and a
      uniform scale. Black Mesa's 80-byte version 11 differs but is read as this one.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: cpu_gpu_levels, type: u1, repeat: expr, repeat-expr: 4, doc: "m_nMinCPULevel, m_nMaxCPULevel, m_nMinGPULevel, m_nMaxGPULevel (0: any)."}
      - {id: diffuse, type: color32, doc: "m_DiffuseModulation: colour and alpha the prop is tinted with."}
      - {id: disable_x360, type: u4, doc: "m_bDisableX360: a bool and its 3 padding bytes, read as one u32 (non-zero: not drawn on Xbox 360)."}
      - {id: flags_ex, type: u4, doc: "m_FlagsEx: STATIC_PROP_FLAGS_EX_* flags."}
      - {id: scale, type: f4, doc: "m_flScale: uniform model scale."}
  static_prop_v13:
    -bspedit-size: 88
    doc: |
      StaticPropLump_t of sprp version 13 (Strata): version 10 and a scale per axis.
    seq:
      - {id: origin, type: vec3, doc: "m_Origin: position."}
      - {id: angles, type: vec3, doc: "m_Angles (a QAngle): pitch, yaw, roll."}
      - {id: model, type: u2, doc: "m_PropType: index into the model name dictionary."}
      - {id: first_leaf, type: u2, doc: "m_FirstLeaf: first entry of the prop in the leaf list."}
      - {id: leaf_count, type: u2, doc: "m_LeafCount: number of leaf list entries of the prop."}
      - {id: solid, type: u1, doc: "m_Solid: collision (SOLID_NONE 0, SOLID_BBOX 2, SOLID_VPHYSICS 6)."}
      - {id: flags, type: u1, doc: "m_Flags: STATIC_PROP_* flags (fades, no shadow, ...)."}
      - {id: skin, type: s4, doc: "m_Skin: model skin."}
      - {id: fade_min, type: f4, doc: "m_FadeMinDist: distance where fading starts."}
      - {id: fade_max, type: f4, doc: "m_FadeMaxDist: distance where the prop has faded out."}
      - {id: lighting_origin, type: vec3, doc: "m_LightingOrigin: the point the prop is lit from."}
      - {id: fade_scale, type: f4, doc: "m_flForcedFadeScale: fade distance scale."}
      - {id: cpu_gpu_levels, type: u1, repeat: expr, repeat-expr: 4, doc: "m_nMinCPULevel, m_nMaxCPULevel, m_nMinGPULevel, m_nMaxGPULevel (0: any)."}
      - {id: diffuse, type: color32, doc: "m_DiffuseModulation: colour and alpha the prop is tinted with."}
      - {id: disable_x360, type: u4, doc: "m_bDisableX360: a bool and its 3 padding bytes, read as one u32 (non-zero: not drawn on Xbox 360)."}
      - {id: flags_ex, type: u4, doc: "m_FlagsEx: STATIC_PROP_FLAGS_EX_* flags."}
      - {id: scale, type: vec3, doc: "Model scale per axis (x, y, z)."}
