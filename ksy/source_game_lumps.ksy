meta:
  id: source_game_lumps
  title: Source engine game lump members (detail props and their lighting)
  endian:
    switch-on: big_endian
    cases:
      false: le
      true: be
  ks-version: 0.11
doc: |
  Members of the Source game lump (lump 35) other than static props (sprp, modelled in
  bspedit/lumps/staticprops.py): `dprp` (detail props) and `dplt` / `dplh` (detail prop lighting,
  LDR and HDR). Each whole type reads one member's (decompressed) bytes. Sources: seed 002/003
  ("Game lump") name the members; the layouts are public/gamebspfile.h of source-sdk-2013
  (GAMELUMP_DETAIL_PROPS_VERSION 4, GAMELUMP_DETAIL_PROP_LIGHTING_VERSION 0). dprp version 5
  is not described: its record layout is not established here (no corpus map has one).
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
