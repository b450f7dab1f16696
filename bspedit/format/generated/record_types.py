"""Record types and lump tables of the bspedit families, as plain data.

Generated from ksy/*.ksy by ksy/compiler/dtypes.js (run ksy/regenerate.sh); do not edit.
bspedit.format.recordtypes builds numpy dtypes from it.

RECORD_TYPES: "spec::type" -> (size in bytes, fields); a field is (name, format, shape),
  the format a little-endian numpy type string ("S<n>" for bytes) or a nested field list.
LUMP_TABLES: family key -> lump name -> entries (type, lump version or None, map versions
  or None, whole, record size or None); whole types read the whole lump and have no size.
GAME_LUMP_TABLES: family key -> game lump id -> entries (type, version, whole, record size
  or None).
BYTE_ORDER_SPECS: the specs whose byte order is their big_endian parameter (console maps);
  their types may also be read big-endian (the formats above swapped). Others are little-endian.
"""
from __future__ import annotations

from typing import Any

RECORD_TYPES: dict[str, tuple[int, list[Any]]] = {
    "bsp2_bsp::node_bsp2": (44, [
        ("planenum", "<i4", ()),
        ("children", "<i4", (2,)),
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("firstface", "<u4", ()),
        ("numfaces", "<u4", ()),
    ]),
    "bsp2_bsp::node_2psb": (32, [
        ("planenum", "<i4", ()),
        ("children", "<i4", (2,)),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstface", "<u4", ()),
        ("numfaces", "<u4", ()),
    ]),
    "bsp2_bsp::face_bsp2": (28, [
        ("planenum", "<i4", ()),
        ("side", "<i4", ()),
        ("firstedge", "<i4", ()),
        ("numedges", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("styles", "u1", (4,)),
        ("lightofs", "<i4", ()),
    ]),
    "bsp2_bsp::clipnode_bsp2": (12, [
        ("planenum", "<i4", ()),
        ("children", "<i4", (2,)),
    ]),
    "bsp2_bsp::leaf_bsp2": (44, [
        ("contents", "<i4", ()),
        ("visofs", "<i4", ()),
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("firstmarksurface", "<u4", ()),
        ("nummarksurfaces", "<u4", ()),
        ("ambient_level", "u1", (4,)),
    ]),
    "bsp2_bsp::leaf_2psb": (32, [
        ("contents", "<i4", ()),
        ("visofs", "<i4", ()),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstmarksurface", "<u4", ()),
        ("nummarksurfaces", "<u4", ()),
        ("ambient_level", "u1", (4,)),
    ]),
    "bsp2_bsp::marksurface_bsp2": (4, [
        ("face", "<u4", ()),
    ]),
    "bsp2_bsp::edge_bsp2": (8, [
        ("v", "<u4", (2,)),
    ]),
    "quake1_bsp::vec3": (12, [
        ("x", "<f4", ()),
        ("y", "<f4", ()),
        ("z", "<f4", ()),
    ]),
    "quake1_bsp::vec3_s2": (6, [
        ("x", "<i2", ()),
        ("y", "<i2", ()),
        ("z", "<i2", ()),
    ]),
    "quake1_bsp::plane": (20, [
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("dist", "<f4", ()),
        ("type", "<i4", ()),
    ]),
    "quake1_bsp::vertex": (12, [
        ("point", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "quake1_bsp::node": (24, [
        ("planenum", "<i4", ()),
        ("children", "<i2", (2,)),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstface", "<u2", ()),
        ("numfaces", "<u2", ()),
    ]),
    "quake1_bsp::texinfo": (40, [
        ("vecs", "<f4", (8,)),
        ("miptex", "<i4", ()),
        ("flags", "<i4", ()),
    ]),
    "quake1_bsp::face": (20, [
        ("planenum", "<u2", ()),
        ("side", "<i2", ()),
        ("firstedge", "<i4", ()),
        ("numedges", "<i2", ()),
        ("texinfo", "<u2", ()),
        ("styles", "u1", (4,)),
        ("lightofs", "<i4", ()),
    ]),
    "quake1_bsp::clipnode": (8, [
        ("planenum", "<i4", ()),
        ("children", "<i2", (2,)),
    ]),
    "quake1_bsp::leaf": (28, [
        ("contents", "<i4", ()),
        ("visofs", "<i4", ()),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstmarksurface", "<u2", ()),
        ("nummarksurfaces", "<u2", ()),
        ("ambient_level", "u1", (4,)),
    ]),
    "quake1_bsp::marksurface": (2, [
        ("face", "<u2", ()),
    ]),
    "quake1_bsp::edge": (4, [
        ("v", "<u2", (2,)),
    ]),
    "quake1_bsp::surfedge": (4, [
        ("edge", "<i4", ()),
    ]),
    "quake1_bsp::model": (64, [
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("headnode", "<i4", (4,)),
        ("visleafs", "<i4", ()),
        ("firstface", "<i4", ()),
        ("numfaces", "<i4", ()),
    ]),
    "quake1_bsp::miptex": (40, [
        ("name", "S16", ()),
        ("width", "<u4", ()),
        ("height", "<u4", ()),
        ("offsets", "<u4", (4,)),
    ]),
    "quake2_bsp::node": (28, [
        ("planenum", "<i4", ()),
        ("children", "<i4", (2,)),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstface", "<u2", ()),
        ("numfaces", "<u2", ()),
    ]),
    "quake2_bsp::texinfo": (76, [
        ("vecs", "<f4", (8,)),
        ("flags", "<i4", ()),
        ("value", "<i4", ()),
        ("texture", "S32", ()),
        ("nexttexinfo", "<i4", ()),
    ]),
    "quake2_bsp::face": (20, [
        ("planenum", "<u2", ()),
        ("side", "<i2", ()),
        ("firstedge", "<i4", ()),
        ("numedges", "<i2", ()),
        ("texinfo", "<i2", ()),
        ("styles", "u1", (4,)),
        ("lightofs", "<i4", ()),
    ]),
    "quake2_bsp::leaf": (28, [
        ("contents", "<i4", ()),
        ("cluster", "<i2", ()),
        ("area", "<i2", ()),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstleafface", "<u2", ()),
        ("numleaffaces", "<u2", ()),
        ("firstleafbrush", "<u2", ()),
        ("numleafbrushes", "<u2", ()),
    ]),
    "quake2_bsp::leafface": (2, [
        ("face", "<u2", ()),
    ]),
    "quake2_bsp::leafbrush": (2, [
        ("brush", "<u2", ()),
    ]),
    "quake2_bsp::model": (48, [
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("headnode", "<i4", ()),
        ("firstface", "<i4", ()),
        ("numfaces", "<i4", ()),
    ]),
    "quake2_bsp::brush": (12, [
        ("firstside", "<i4", ()),
        ("numsides", "<i4", ()),
        ("contents", "<i4", ()),
    ]),
    "quake2_bsp::brush_side": (4, [
        ("planenum", "<u2", ()),
        ("texinfo", "<i2", ()),
    ]),
    "quake2_bsp::area": (8, [
        ("numareaportals", "<i4", ()),
        ("firstareaportal", "<i4", ()),
    ]),
    "quake2_bsp::areaportal": (8, [
        ("portalnum", "<i4", ()),
        ("otherarea", "<i4", ()),
    ]),
    "quake2_bsp::bitofs_pair": (8, [
        ("pvs", "<i4", ()),
        ("phs", "<i4", ()),
    ]),
    "quake3_bsp::vec3_s4": (12, [
        ("x", "<i4", ()),
        ("y", "<i4", ()),
        ("z", "<i4", ()),
    ]),
    "quake3_bsp::shader": (72, [
        ("shader", "S64", ()),
        ("surface_flags", "<i4", ()),
        ("content_flags", "<i4", ()),
    ]),
    "quake3_bsp::plane": (16, [
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("dist", "<f4", ()),
    ]),
    "quake3_bsp::node": (36, [
        ("plane_num", "<i4", ()),
        ("children", "<i4", (2,)),
        ("mins", [("x", "<i4", ()), ("y", "<i4", ()), ("z", "<i4", ())], ()),
        ("maxs", [("x", "<i4", ()), ("y", "<i4", ()), ("z", "<i4", ())], ()),
    ]),
    "quake3_bsp::leaf": (48, [
        ("cluster", "<i4", ()),
        ("area", "<i4", ()),
        ("mins", [("x", "<i4", ()), ("y", "<i4", ()), ("z", "<i4", ())], ()),
        ("maxs", [("x", "<i4", ()), ("y", "<i4", ()), ("z", "<i4", ())], ()),
        ("first_leaf_surface", "<i4", ()),
        ("num_leaf_surfaces", "<i4", ()),
        ("first_leaf_brush", "<i4", ()),
        ("num_leaf_brushes", "<i4", ()),
    ]),
    "quake3_bsp::leafsurface": (4, [
        ("surface", "<i4", ()),
    ]),
    "quake3_bsp::leafbrush": (4, [
        ("brush", "<i4", ()),
    ]),
    "quake3_bsp::model": (40, [
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("first_surface", "<i4", ()),
        ("num_surfaces", "<i4", ()),
        ("first_brush", "<i4", ()),
        ("num_brushes", "<i4", ()),
    ]),
    "quake3_bsp::brush": (12, [
        ("first_side", "<i4", ()),
        ("num_sides", "<i4", ()),
        ("shader_num", "<i4", ()),
    ]),
    "quake3_bsp::brush_side": (8, [
        ("plane_num", "<i4", ()),
        ("shader_num", "<i4", ()),
    ]),
    "quake3_bsp::draw_vert": (44, [
        ("xyz", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("st", "<f4", (2,)),
        ("lightmap", "<f4", (2,)),
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("color", "u1", (4,)),
    ]),
    "quake3_bsp::draw_index": (4, [
        ("index", "<i4", ()),
    ]),
    "quake3_bsp::fog": (72, [
        ("shader", "S64", ()),
        ("brush_num", "<i4", ()),
        ("visible_side", "<i4", ()),
    ]),
    "quake3_bsp::surface": (104, [
        ("shader_num", "<i4", ()),
        ("fog_num", "<i4", ()),
        ("surface_type", "<i4", ()),
        ("first_vert", "<i4", ()),
        ("num_verts", "<i4", ()),
        ("first_index", "<i4", ()),
        ("num_indexes", "<i4", ()),
        ("lightmap_num", "<i4", ()),
        ("lightmap_x", "<i4", ()),
        ("lightmap_y", "<i4", ()),
        ("lightmap_width", "<i4", ()),
        ("lightmap_height", "<i4", ()),
        ("lightmap_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("lightmap_vecs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (3,)),
        ("patch_width", "<i4", ()),
        ("patch_height", "<i4", ()),
    ]),
    "quake3_bsp::lightmap": (49152, [
        ("map", "S49152", ()),
    ]),
    "quake3_bsp::light_grid": (8, [
        ("ambient", "u1", (3,)),
        ("directed", "u1", (3,)),
        ("lat_long", "u1", (2,)),
    ]),
    "raven_bsp::brush_side": (12, [
        ("plane_num", "<i4", ()),
        ("shader_num", "<i4", ()),
        ("draw_surf_num", "<i4", ()),
    ]),
    "raven_bsp::draw_vert": (80, [
        ("xyz", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("st", "<f4", (2,)),
        ("lightmap", "<f4", (8,)),
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("color", "u1", (16,)),
    ]),
    "raven_bsp::surface": (148, [
        ("shader_num", "<i4", ()),
        ("fog_num", "<i4", ()),
        ("surface_type", "<i4", ()),
        ("first_vert", "<i4", ()),
        ("num_verts", "<i4", ()),
        ("first_index", "<i4", ()),
        ("num_indexes", "<i4", ()),
        ("lightmap_styles", "u1", (4,)),
        ("vertex_styles", "u1", (4,)),
        ("lightmap_num", "<i4", (4,)),
        ("lightmap_x", "<i4", (4,)),
        ("lightmap_y", "<i4", (4,)),
        ("lightmap_width", "<i4", ()),
        ("lightmap_height", "<i4", ()),
        ("lightmap_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("lightmap_vecs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (3,)),
        ("patch_width", "<i4", ()),
        ("patch_height", "<i4", ()),
    ]),
    "raven_bsp::lightmap_512": (786432, [
        ("map", "S786432", ()),
    ]),
    "raven_bsp::light_grid": (30, [
        ("ambient", "u1", (12,)),
        ("directed", "u1", (12,)),
        ("styles", "u1", (4,)),
        ("lat_long", "u1", (2,)),
    ]),
    "raven_bsp::light_array": (2, [
        ("grid_index", "<u2", ()),
    ]),
    "source_bsp::vec3": (12, [
        ("x", "<f4", ()),
        ("y", "<f4", ()),
        ("z", "<f4", ()),
    ]),
    "source_bsp::vec3_s2": (6, [
        ("x", "<i2", ()),
        ("y", "<i2", ()),
        ("z", "<i2", ()),
    ]),
    "source_bsp::vec2": (8, [
        ("x", "<f4", ()),
        ("y", "<f4", ()),
    ]),
    "source_bsp::color_rgb_exp32": (4, [
        ("r", "u1", ()),
        ("g", "u1", ()),
        ("b", "u1", ()),
        ("exponent", "i1", ()),
    ]),
    "source_bsp::compressed_light_cube": (24, [
        ("color", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("exponent", "i1", ())], (6,)),
    ]),
    "source_bsp::plane": (20, [
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("dist", "<f4", ()),
        ("type", "<i4", ()),
    ]),
    "source_bsp::texdata": (32, [
        ("reflectivity", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("name_string_table_id", "<i4", ()),
        ("width", "<i4", ()),
        ("height", "<i4", ()),
        ("view_width", "<i4", ()),
        ("view_height", "<i4", ()),
    ]),
    "source_bsp::node": (32, [
        ("planenum", "<i4", ()),
        ("children", "<i4", (2,)),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstface", "<u2", ()),
        ("numfaces", "<u2", ()),
        ("area", "<i2", ()),
        ("padding", "<i2", ()),
    ]),
    "source_bsp::node_strata": (48, [
        ("planenum", "<i4", ()),
        ("children", "<i4", (2,)),
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("firstface", "<u4", ()),
        ("numfaces", "<u4", ()),
        ("area", "<i2", ()),
        ("padding", "<i2", ()),
    ]),
    "source_bsp::texinfo": (72, [
        ("texture_vecs", "<f4", (8,)),
        ("lightmap_vecs", "<f4", (8,)),
        ("flags", "<i4", ()),
        ("texdata", "<i4", ()),
    ]),
    "source_bsp::face": (56, [
        ("planenum", "<u2", ()),
        ("side", "u1", ()),
        ("on_node", "u1", ()),
        ("firstedge", "<i4", ()),
        ("numedges", "<i2", ()),
        ("texinfo", "<i2", ()),
        ("dispinfo", "<i2", ()),
        ("surface_fog_volume_id", "<i2", ()),
        ("styles", "u1", (4,)),
        ("lightofs", "<i4", ()),
        ("area", "<f4", ()),
        ("lightmap_texture_mins_in_luxels", "<i4", (2,)),
        ("lightmap_texture_size_in_luxels", "<i4", (2,)),
        ("orig_face", "<i4", ()),
        ("num_prims", "<u2", ()),
        ("first_prim_id", "<u2", ()),
        ("smoothing_groups", "<u4", ()),
    ]),
    "source_bsp::face_strata": (72, [
        ("planenum", "<u4", ()),
        ("side", "u1", ()),
        ("on_node", "u1", ()),
        ("padding", "<u2", ()),
        ("firstedge", "<i4", ()),
        ("numedges", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("dispinfo", "<i4", ()),
        ("surface_fog_volume_id", "<i4", ()),
        ("styles", "u1", (4,)),
        ("lightofs", "<i4", ()),
        ("area", "<f4", ()),
        ("lightmap_texture_mins_in_luxels", "<i4", (2,)),
        ("lightmap_texture_size_in_luxels", "<i4", (2,)),
        ("orig_face", "<i4", ()),
        ("num_prims", "<u4", ()),
        ("first_prim_id", "<u4", ()),
        ("smoothing_groups", "<u4", ()),
    ]),
    "source_bsp::leaf_v0": (56, [
        ("contents", "<i4", ()),
        ("cluster", "<i2", ()),
        ("area_and_flags", "<u2", ()),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstleafface", "<u2", ()),
        ("numleaffaces", "<u2", ()),
        ("firstleafbrush", "<u2", ()),
        ("numleafbrushes", "<u2", ()),
        ("leaf_water_data_id", "<i2", ()),
        ("ambient_lighting", [("color", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("exponent", "i1", ())], (6,))], ()),
        ("padding", "<i2", ()),
    ]),
    "source_bsp::leaf_v1": (32, [
        ("contents", "<i4", ()),
        ("cluster", "<i2", ()),
        ("area_and_flags", "<u2", ()),
        ("mins", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("maxs", [("x", "<i2", ()), ("y", "<i2", ()), ("z", "<i2", ())], ()),
        ("firstleafface", "<u2", ()),
        ("numleaffaces", "<u2", ()),
        ("firstleafbrush", "<u2", ()),
        ("numleafbrushes", "<u2", ()),
        ("leaf_water_data_id", "<i2", ()),
        ("padding", "<i2", ()),
    ]),
    "source_bsp::leaf_strata": (56, [
        ("contents", "<i4", ()),
        ("cluster", "<i4", ()),
        ("area_and_flags", "<u4", ()),
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("firstleafface", "<u4", ()),
        ("numleaffaces", "<u4", ()),
        ("firstleafbrush", "<u4", ()),
        ("numleafbrushes", "<u4", ()),
        ("leaf_water_data_id", "<i4", ()),
    ]),
    "source_bsp::faceid": (2, [
        ("hammer_face_id", "<u2", ()),
    ]),
    "source_bsp::faceid_strata": (4, [
        ("hammer_face_id", "<u4", ()),
    ]),
    "source_bsp::edge": (4, [
        ("v", "<u2", (2,)),
    ]),
    "source_bsp::edge_strata": (8, [
        ("v", "<u4", (2,)),
    ]),
    "source_bsp::surfedge": (4, [
        ("edge", "<i4", ()),
    ]),
    "source_bsp::model": (48, [
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("headnode", "<i4", ()),
        ("firstface", "<i4", ()),
        ("numfaces", "<i4", ()),
    ]),
    "source_bsp::worldlight_v0": (88, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("intensity", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("cluster", "<i4", ()),
        ("type", "<i4", ()),
        ("style", "<i4", ()),
        ("stopdot", "<f4", ()),
        ("stopdot2", "<f4", ()),
        ("exponent", "<f4", ()),
        ("radius", "<f4", ()),
        ("constant_attn", "<f4", ()),
        ("linear_attn", "<f4", ()),
        ("quadratic_attn", "<f4", ()),
        ("flags", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("owner", "<i4", ()),
    ]),
    "source_bsp::worldlight_v1": (100, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("intensity", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("shadow_cast_offset", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("cluster", "<i4", ()),
        ("type", "<i4", ()),
        ("style", "<i4", ()),
        ("stopdot", "<f4", ()),
        ("stopdot2", "<f4", ()),
        ("exponent", "<f4", ()),
        ("radius", "<f4", ()),
        ("constant_attn", "<f4", ()),
        ("linear_attn", "<f4", ()),
        ("quadratic_attn", "<f4", ()),
        ("flags", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("owner", "<i4", ()),
    ]),
    "source_bsp::leafface": (2, [
        ("face", "<u2", ()),
    ]),
    "source_bsp::leafface_strata": (4, [
        ("face", "<u4", ()),
    ]),
    "source_bsp::leafbrush": (2, [
        ("brush", "<u2", ()),
    ]),
    "source_bsp::leafbrush_strata": (4, [
        ("brush", "<u4", ()),
    ]),
    "source_bsp::brush": (12, [
        ("firstside", "<i4", ()),
        ("numsides", "<i4", ()),
        ("contents", "<i4", ()),
    ]),
    "source_bsp::brush_side": (8, [
        ("planenum", "<u2", ()),
        ("texinfo", "<i2", ()),
        ("dispinfo", "<i2", ()),
        ("bevel", "u1", ()),
        ("thin", "u1", ()),
    ]),
    "source_bsp::brush_side_strata": (16, [
        ("planenum", "<u4", ()),
        ("texinfo", "<i4", ()),
        ("dispinfo", "<i4", ()),
        ("bevel", "u1", ()),
        ("thin", "u1", ()),
        ("padding", "<u2", ()),
    ]),
    "source_bsp::area": (8, [
        ("numareaportals", "<i4", ()),
        ("firstareaportal", "<i4", ()),
    ]),
    "source_bsp::areaportal": (12, [
        ("portal_key", "<u2", ()),
        ("otherarea", "<u2", ()),
        ("first_clip_portal_vert", "<u2", ()),
        ("num_clip_portal_verts", "<u2", ()),
        ("planenum", "<i4", ()),
    ]),
    "source_bsp::areaportal_strata": (20, [
        ("portal_key", "<u4", ()),
        ("otherarea", "<u4", ()),
        ("first_clip_portal_vert", "<u4", ()),
        ("num_clip_portal_verts", "<u4", ()),
        ("planenum", "<i4", ()),
    ]),
    "source_bsp::disp_sub_neighbor": (6, [
        ("neighbor", "<u2", ()),
        ("neighbor_orientation", "u1", ()),
        ("span", "u1", ()),
        ("neighbor_span", "u1", ()),
        ("padding", "u1", ()),
    ]),
    "source_bsp::disp_neighbor": (12, [
        ("sub_neighbors", [("neighbor", "<u2", ()), ("neighbor_orientation", "u1", ()), ("span", "u1", ()), ("neighbor_span", "u1", ()), ("padding", "u1", ())], (2,)),
    ]),
    "source_bsp::disp_corner_neighbors": (10, [
        ("neighbors", "<u2", (4,)),
        ("num_neighbors", "u1", ()),
        ("padding", "u1", ()),
    ]),
    "source_bsp::dispinfo": (176, [
        ("start_position", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("disp_vert_start", "<i4", ()),
        ("disp_tri_start", "<i4", ()),
        ("power", "<i4", ()),
        ("min_tess", "<i4", ()),
        ("smoothing_angle", "<f4", ()),
        ("contents", "<i4", ()),
        ("map_face", "<u2", ()),
        ("padding", "<u2", ()),
        ("lightmap_alpha_start", "<i4", ()),
        ("lightmap_sample_position_start", "<i4", ()),
        ("edge_neighbors", [("sub_neighbors", [("neighbor", "<u2", ()), ("neighbor_orientation", "u1", ()), ("span", "u1", ()), ("neighbor_span", "u1", ()), ("padding", "u1", ())], (2,))], (4,)),
        ("corner_neighbors", [("neighbors", "<u2", (4,)), ("num_neighbors", "u1", ()), ("padding", "u1", ())], (4,)),
        ("allowed_verts", "<u4", (10,)),
    ]),
    "source_bsp::vertnormalindex": (2, [
        ("vertnormal", "<u2", ()),
    ]),
    "source_bsp::vertnormalindex_strata": (4, [
        ("vertnormal", "<u4", ()),
    ]),
    "source_bsp::disp_vert": (20, [
        ("vec", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("dist", "<f4", ()),
        ("alpha", "<f4", ()),
    ]),
    "source_bsp::disp_tri": (2, [
        ("tags", "<u2", ()),
    ]),
    "source_bsp::leafwaterdata": (12, [
        ("surface_z", "<f4", ()),
        ("min_z", "<f4", ()),
        ("surface_tex_info_id", "<i2", ()),
        ("padding", "<u2", ()),
    ]),
    "source_bsp::primitive": (10, [
        ("type", "u1", ()),
        ("padding", "u1", ()),
        ("first_index", "<u2", ()),
        ("index_count", "<u2", ()),
        ("first_vert", "<u2", ()),
        ("vert_count", "<u2", ()),
    ]),
    "source_bsp::primindex": (2, [
        ("vert", "<u2", ()),
    ]),
    "source_bsp::cubemap_sample": (16, [
        ("origin", "<i4", (3,)),
        ("size", "<i4", ()),
    ]),
    "source_bsp::texdata_string_table_entry": (4, [
        ("offset", "<i4", ()),
    ]),
    "source_bsp::overlay": (352, [
        ("id", "<i4", ()),
        ("texinfo", "<i2", ()),
        ("face_count_and_render_order", "<u2", ()),
        ("faces", "<i4", (64,)),
        ("u", "<f4", (2,)),
        ("v", "<f4", (2,)),
        ("uv_points", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (4,)),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("basis_normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "source_bsp::leafmindisttowater": (2, [
        ("min_dist", "<u2", ()),
    ]),
    "source_bsp::face_macro_texture_info": (2, [
        ("macro_texture_name_id", "<i2", ()),
    ]),
    "source_bsp::wateroverlay": (1120, [
        ("id", "<i4", ()),
        ("texinfo", "<i2", ()),
        ("face_count_and_render_order", "<u2", ()),
        ("faces", "<i4", (256,)),
        ("u", "<f4", (2,)),
        ("v", "<f4", (2,)),
        ("uv_points", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (4,)),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("basis_normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "source_bsp::leaf_ambient_index": (4, [
        ("ambient_sample_count", "<u2", ()),
        ("first_ambient_sample", "<u2", ()),
    ]),
    "source_bsp::leaf_ambient_index_strata": (8, [
        ("ambient_sample_count", "<u4", ()),
        ("first_ambient_sample", "<u4", ()),
    ]),
    "source_bsp::leaf_ambient_lighting": (28, [
        ("cube", [("color", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("exponent", "i1", ())], (6,))], ()),
        ("x", "u1", ()),
        ("y", "u1", ()),
        ("z", "u1", ()),
        ("pad", "u1", ()),
    ]),
    "source_bsp::map_flags": (4, [
        ("level_flags", "<u4", ()),
    ]),
    "source_bsp::overlay_fade": (8, [
        ("fade_dist_min_sq", "<f4", ()),
        ("fade_dist_max_sq", "<f4", ()),
    ]),
    "source_bsp::overlay_system_level": (4, [
        ("min_cpu_level", "u1", ()),
        ("max_cpu_level", "u1", ()),
        ("min_gpu_level", "u1", ()),
        ("max_gpu_level", "u1", ()),
    ]),
    "source_bsp::color_rgba8": (4, [
        ("r", "u1", ()),
        ("g", "u1", ()),
        ("b", "u1", ()),
        ("a", "u1", ()),
    ]),
    "source_bsp::disp_sub_neighbor_strata": (8, [
        ("neighbor", "<u4", ()),
        ("neighbor_orientation", "u1", ()),
        ("span", "u1", ()),
        ("neighbor_span", "u1", ()),
        ("padding", "u1", ()),
    ]),
    "source_bsp::disp_neighbor_strata": (16, [
        ("sub_neighbors", [("neighbor", "<u4", ()), ("neighbor_orientation", "u1", ()), ("span", "u1", ()), ("neighbor_span", "u1", ()), ("padding", "u1", ())], (2,)),
    ]),
    "source_bsp::disp_corner_neighbors_strata": (20, [
        ("neighbors", "<u4", (4,)),
        ("num_neighbors", "u1", ()),
        ("padding", "u1", (3,)),
    ]),
    "source_bsp::dispinfo_strata": (232, [
        ("start_position", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("disp_vert_start", "<i4", ()),
        ("disp_tri_start", "<i4", ()),
        ("power", "<i4", ()),
        ("min_tess", "<i4", ()),
        ("smoothing_angle", "<f4", ()),
        ("contents", "<i4", ()),
        ("map_face", "<u4", ()),
        ("lightmap_alpha_start", "<i4", ()),
        ("lightmap_sample_position_start", "<i4", ()),
        ("edge_neighbors", [("sub_neighbors", [("neighbor", "<u4", ()), ("neighbor_orientation", "u1", ()), ("span", "u1", ()), ("neighbor_span", "u1", ()), ("padding", "u1", ())], (2,))], (4,)),
        ("corner_neighbors", [("neighbors", "<u4", (4,)), ("num_neighbors", "u1", ()), ("padding", "u1", (3,))], (4,)),
        ("allowed_verts", "<u4", (10,)),
    ]),
    "source_bsp::primitive_strata": (20, [
        ("type", "u1", ()),
        ("padding", "u1", (3,)),
        ("first_index", "<u4", ()),
        ("index_count", "<u4", ()),
        ("first_vert", "<u4", ()),
        ("vert_count", "<u4", ()),
    ]),
    "source_bsp::leafwaterdata_strata": (12, [
        ("surface_z", "<f4", ()),
        ("min_z", "<f4", ()),
        ("surface_tex_info_id", "<i4", ()),
    ]),
    "source_bsp::worldlight_v2_strata": (104, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("intensity", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("shadow_cast_offset", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("cluster", "<i4", ()),
        ("type", "<i4", ()),
        ("mode", "u1", ()),
        ("implicit_padding", "u1", ()),
        ("padding", "<u2", ()),
        ("style", "<i4", ()),
        ("stopdot", "<f4", ()),
        ("stopdot2", "<f4", ()),
        ("exponent", "<f4", ()),
        ("radius", "<f4", ()),
        ("constant_attn", "<f4", ()),
        ("linear_attn", "<f4", ()),
        ("quadratic_attn", "<f4", ()),
        ("flags", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("owner", "<i4", ()),
    ]),
    "source_bsp::overlay_v1_strata": (356, [
        ("id", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("face_count_and_render_order", "<u2", ()),
        ("padding", "<u2", ()),
        ("faces", "<i4", (64,)),
        ("u", "<f4", (2,)),
        ("v", "<f4", (2,)),
        ("uv_points", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (4,)),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("basis_normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "source_bsp::overlay_v2_strata": (360, [
        ("id", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("face_count_and_render_order", "<u2", ()),
        ("padding", "<u2", ()),
        ("faces", "<i4", (64,)),
        ("u", "<f4", (2,)),
        ("v", "<f4", (2,)),
        ("uv_points", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (4,)),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("basis_normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("tint", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
    ]),
    "source_bsp::overlay_v3_strata": (108, [
        ("id", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("flags", "<u2", ()),
        ("render_order", "<u2", ()),
        ("face_offset", "<i4", ()),
        ("face_count", "<i4", ()),
        ("u", [("x", "<f4", ()), ("y", "<f4", ())], ()),
        ("v", [("x", "<f4", ()), ("y", "<f4", ())], ()),
        ("uv_points", [("x", "<f4", ()), ("y", "<f4", ())], (4,)),
        ("basis_u", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("basis_normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("tint", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
    ]),
    "source_bsp::wateroverlay_strata": (1124, [
        ("id", "<i4", ()),
        ("texinfo", "<i4", ()),
        ("face_count_and_render_order", "<u2", ()),
        ("padding", "<u2", ()),
        ("faces", "<i4", (256,)),
        ("u", "<f4", (2,)),
        ("v", "<f4", (2,)),
        ("uv_points", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], (4,)),
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("basis_normal", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "source_bsp::vis_offsets": (8, [
        ("pvs", "<i4", ()),
        ("pas", "<i4", ()),
    ]),
    "source_bsp::occluder_data_v1": (36, [
        ("flags", "<i4", ()),
        ("firstpoly", "<i4", ()),
        ("polycount", "<i4", ()),
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "source_bsp::occluder_data": (40, [
        ("flags", "<i4", ()),
        ("firstpoly", "<i4", ()),
        ("polycount", "<i4", ()),
        ("mins", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("maxs", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("area", "<i4", ()),
    ]),
    "source_bsp::occluder_poly": (12, [
        ("firstvertexindex", "<i4", ()),
        ("vertexcount", "<i4", ()),
        ("planenum", "<i4", ()),
    ]),
    "source_game_lumps::vec2": (8, [
        ("x", "<f4", ()),
        ("y", "<f4", ()),
    ]),
    "source_game_lumps::vec3": (12, [
        ("x", "<f4", ()),
        ("y", "<f4", ()),
        ("z", "<f4", ()),
    ]),
    "source_game_lumps::color_rgb_exp32": (4, [
        ("r", "u1", ()),
        ("g", "u1", ()),
        ("b", "u1", ()),
        ("exponent", "i1", ()),
    ]),
    "source_game_lumps::detail_object_dict_entry": (128, [
        ("name", "S128", ()),
    ]),
    "source_game_lumps::detail_sprite_dict_entry": (32, [
        ("ul", [("x", "<f4", ()), ("y", "<f4", ())], ()),
        ("lr", [("x", "<f4", ()), ("y", "<f4", ())], ()),
        ("tex_ul", [("x", "<f4", ()), ("y", "<f4", ())], ()),
        ("tex_lr", [("x", "<f4", ()), ("y", "<f4", ())], ()),
    ]),
    "source_game_lumps::detail_object_v4": (52, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("detail_model", "<u2", ()),
        ("leaf", "<u2", ()),
        ("lighting", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("exponent", "i1", ())], ()),
        ("light_styles", "<u4", ()),
        ("light_style_count", "u1", ()),
        ("sway_amount", "u1", ()),
        ("shape_angle", "u1", ()),
        ("shape_size", "u1", ()),
        ("orientation", "u1", ()),
        ("padding2", "S3", ()),
        ("type", "u1", ()),
        ("padding3", "S3", ()),
        ("scale", "<f4", ()),
    ]),
    "source_game_lumps::detail_prop_lightstyle": (5, [
        ("lighting", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("exponent", "i1", ())], ()),
        ("style", "u1", ()),
    ]),
    "source_game_lumps::color32": (4, [
        ("r", "u1", ()),
        ("g", "u1", ()),
        ("b", "u1", ()),
        ("a", "u1", ()),
    ]),
    "source_game_lumps::static_prop_v4": (56, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
    "source_game_lumps::static_prop_v5": (60, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
    ]),
    "source_game_lumps::static_prop_v6": (64, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("min_dx_level", "<u2", ()),
        ("max_dx_level", "<u2", ()),
    ]),
    "source_game_lumps::static_prop_v7": (68, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("min_dx_level", "<u2", ()),
        ("max_dx_level", "<u2", ()),
        ("diffuse", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
    ]),
    "source_game_lumps::static_prop_v7_star": (72, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("padding", "S1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("min_dx_level", "<u2", ()),
        ("max_dx_level", "<u2", ()),
        ("flags", "<u4", ()),
        ("lightmap_size", "<u2", (2,)),
    ]),
    "source_game_lumps::static_prop_v8": (68, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("cpu_gpu_levels", "u1", (4,)),
        ("diffuse", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
    ]),
    "source_game_lumps::static_prop_v9": (72, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("cpu_gpu_levels", "u1", (4,)),
        ("diffuse", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
        ("disable_x360", "<u4", ()),
    ]),
    "source_game_lumps::static_prop_v10": (76, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("cpu_gpu_levels", "u1", (4,)),
        ("diffuse", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
        ("disable_x360", "<u4", ()),
        ("flags_ex", "<u4", ()),
    ]),
    "source_game_lumps::static_prop_v11": (80, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("cpu_gpu_levels", "u1", (4,)),
        ("diffuse", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
        ("disable_x360", "<u4", ()),
        ("flags_ex", "<u4", ()),
        ("scale", "<f4", ()),
    ]),
    "source_game_lumps::static_prop_v13": (88, [
        ("origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("angles", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("model", "<u2", ()),
        ("first_leaf", "<u2", ()),
        ("leaf_count", "<u2", ()),
        ("solid", "u1", ()),
        ("flags", "u1", ()),
        ("skin", "<i4", ()),
        ("fade_min", "<f4", ()),
        ("fade_max", "<f4", ()),
        ("lighting_origin", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
        ("fade_scale", "<f4", ()),
        ("cpu_gpu_levels", "u1", (4,)),
        ("diffuse", [("r", "u1", ()), ("g", "u1", ()), ("b", "u1", ()), ("a", "u1", ())], ()),
        ("disable_x360", "<u4", ()),
        ("flags_ex", "<u4", ()),
        ("scale", [("x", "<f4", ()), ("y", "<f4", ()), ("z", "<f4", ())], ()),
    ]),
}

LUMP_TABLES: dict[str, dict[str, list[tuple[Any, ...]]]] = {
    "bsp2": {
        "PLANES": [
            ("quake1_bsp::plane", None, None, False, 20),
        ],
        "TEXTURES": [
            ("quake1_bsp::miptex_lump", None, None, True, None),
        ],
        "VERTEXES": [
            ("quake1_bsp::vertex", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("quake1_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("bsp2_bsp::node_bsp2", None, None, False, 44),
        ],
        "TEXINFO": [
            ("quake1_bsp::texinfo", None, None, False, 40),
        ],
        "FACES": [
            ("bsp2_bsp::face_bsp2", None, None, False, 28),
        ],
        "LIGHTING": [
            ("quake1_bsp::lighting", None, None, True, None),
        ],
        "CLIPNODES": [
            ("bsp2_bsp::clipnode_bsp2", None, None, False, 12),
        ],
        "LEAFS": [
            ("bsp2_bsp::leaf_bsp2", None, None, False, 44),
        ],
        "MARKSURFACES": [
            ("bsp2_bsp::marksurface_bsp2", None, None, False, 4),
        ],
        "EDGES": [
            ("bsp2_bsp::edge_bsp2", None, None, False, 8),
        ],
        "SURFEDGES": [
            ("quake1_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("quake1_bsp::model", None, None, False, 64),
        ],
    },
    "2psb": {
        "PLANES": [
            ("quake1_bsp::plane", None, None, False, 20),
        ],
        "TEXTURES": [
            ("quake1_bsp::miptex_lump", None, None, True, None),
        ],
        "VERTEXES": [
            ("quake1_bsp::vertex", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("quake1_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("bsp2_bsp::node_2psb", None, None, False, 32),
        ],
        "TEXINFO": [
            ("quake1_bsp::texinfo", None, None, False, 40),
        ],
        "FACES": [
            ("bsp2_bsp::face_bsp2", None, None, False, 28),
        ],
        "LIGHTING": [
            ("quake1_bsp::lighting", None, None, True, None),
        ],
        "CLIPNODES": [
            ("bsp2_bsp::clipnode_bsp2", None, None, False, 12),
        ],
        "LEAFS": [
            ("bsp2_bsp::leaf_2psb", None, None, False, 32),
        ],
        "MARKSURFACES": [
            ("bsp2_bsp::marksurface_bsp2", None, None, False, 4),
        ],
        "EDGES": [
            ("bsp2_bsp::edge_bsp2", None, None, False, 8),
        ],
        "SURFEDGES": [
            ("quake1_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("quake1_bsp::model", None, None, False, 64),
        ],
    },
    "q1": {
        "PLANES": [
            ("quake1_bsp::plane", None, None, False, 20),
        ],
        "TEXTURES": [
            ("quake1_bsp::miptex_lump", None, (29,), True, None),
            ("quake1_bsp::miptex_lump_goldsrc", None, (30,), True, None),
        ],
        "VERTEXES": [
            ("quake1_bsp::vertex", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("quake1_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("quake1_bsp::node", None, None, False, 24),
        ],
        "TEXINFO": [
            ("quake1_bsp::texinfo", None, None, False, 40),
        ],
        "FACES": [
            ("quake1_bsp::face", None, None, False, 20),
        ],
        "LIGHTING": [
            ("quake1_bsp::lighting", None, None, True, None),
        ],
        "CLIPNODES": [
            ("quake1_bsp::clipnode", None, None, False, 8),
        ],
        "LEAFS": [
            ("quake1_bsp::leaf", None, None, False, 28),
        ],
        "MARKSURFACES": [
            ("quake1_bsp::marksurface", None, None, False, 2),
        ],
        "EDGES": [
            ("quake1_bsp::edge", None, None, False, 4),
        ],
        "SURFEDGES": [
            ("quake1_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("quake1_bsp::model", None, None, False, 64),
        ],
    },
    "goldsrc": {
        "PLANES": [
            ("quake1_bsp::plane", None, None, False, 20),
        ],
        "TEXTURES": [
            ("quake1_bsp::miptex_lump", None, (29,), True, None),
            ("quake1_bsp::miptex_lump_goldsrc", None, (30,), True, None),
        ],
        "VERTEXES": [
            ("quake1_bsp::vertex", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("quake1_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("quake1_bsp::node", None, None, False, 24),
        ],
        "TEXINFO": [
            ("quake1_bsp::texinfo", None, None, False, 40),
        ],
        "FACES": [
            ("quake1_bsp::face", None, None, False, 20),
        ],
        "LIGHTING": [
            ("quake1_bsp::lighting", None, None, True, None),
        ],
        "CLIPNODES": [
            ("quake1_bsp::clipnode", None, None, False, 8),
        ],
        "LEAFS": [
            ("quake1_bsp::leaf", None, None, False, 28),
        ],
        "MARKSURFACES": [
            ("quake1_bsp::marksurface", None, None, False, 2),
        ],
        "EDGES": [
            ("quake1_bsp::edge", None, None, False, 4),
        ],
        "SURFEDGES": [
            ("quake1_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("quake1_bsp::model", None, None, False, 64),
        ],
    },
    "bshift": {
        "PLANES": [
            ("quake1_bsp::plane", None, None, False, 20),
        ],
        "TEXTURES": [
            ("quake1_bsp::miptex_lump", None, (29,), True, None),
            ("quake1_bsp::miptex_lump_goldsrc", None, (30,), True, None),
        ],
        "VERTEXES": [
            ("quake1_bsp::vertex", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("quake1_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("quake1_bsp::node", None, None, False, 24),
        ],
        "TEXINFO": [
            ("quake1_bsp::texinfo", None, None, False, 40),
        ],
        "FACES": [
            ("quake1_bsp::face", None, None, False, 20),
        ],
        "LIGHTING": [
            ("quake1_bsp::lighting", None, None, True, None),
        ],
        "CLIPNODES": [
            ("quake1_bsp::clipnode", None, None, False, 8),
        ],
        "LEAFS": [
            ("quake1_bsp::leaf", None, None, False, 28),
        ],
        "MARKSURFACES": [
            ("quake1_bsp::marksurface", None, None, False, 2),
        ],
        "EDGES": [
            ("quake1_bsp::edge", None, None, False, 4),
        ],
        "SURFEDGES": [
            ("quake1_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("quake1_bsp::model", None, None, False, 64),
        ],
    },
    "q2": {
        "PLANES": [
            ("quake1_bsp::plane", None, None, False, 20),
        ],
        "VERTEXES": [
            ("quake1_bsp::vertex", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("quake2_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("quake2_bsp::node", None, None, False, 28),
        ],
        "TEXINFO": [
            ("quake2_bsp::texinfo", None, None, False, 76),
        ],
        "FACES": [
            ("quake2_bsp::face", None, None, False, 20),
        ],
        "LIGHTING": [
            ("quake2_bsp::lighting", None, None, True, None),
        ],
        "LEAFS": [
            ("quake2_bsp::leaf", None, None, False, 28),
        ],
        "LEAFFACES": [
            ("quake2_bsp::leafface", None, None, False, 2),
        ],
        "LEAFBRUSHES": [
            ("quake2_bsp::leafbrush", None, None, False, 2),
        ],
        "EDGES": [
            ("quake1_bsp::edge", None, None, False, 4),
        ],
        "SURFEDGES": [
            ("quake1_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("quake2_bsp::model", None, None, False, 48),
        ],
        "BRUSHES": [
            ("quake2_bsp::brush", None, None, False, 12),
        ],
        "BRUSHSIDES": [
            ("quake2_bsp::brush_side", None, None, False, 4),
        ],
        "AREAS": [
            ("quake2_bsp::area", None, None, False, 8),
        ],
        "AREAPORTALS": [
            ("quake2_bsp::areaportal", None, None, False, 8),
        ],
        "POP": [
            ("quake2_bsp::pop", None, None, True, None),
        ],
    },
    "q3": {
        "SHADERS": [
            ("quake3_bsp::shader", None, None, False, 72),
        ],
        "PLANES": [
            ("quake3_bsp::plane", None, None, False, 16),
        ],
        "NODES": [
            ("quake3_bsp::node", None, None, False, 36),
        ],
        "LEAFS": [
            ("quake3_bsp::leaf", None, None, False, 48),
        ],
        "LEAFSURFACES": [
            ("quake3_bsp::leafsurface", None, None, False, 4),
        ],
        "LEAFBRUSHES": [
            ("quake3_bsp::leafbrush", None, None, False, 4),
        ],
        "MODELS": [
            ("quake3_bsp::model", None, None, False, 40),
        ],
        "BRUSHES": [
            ("quake3_bsp::brush", None, None, False, 12),
        ],
        "BRUSHSIDES": [
            ("quake3_bsp::brush_side", None, None, False, 8),
        ],
        "DRAWVERTS": [
            ("quake3_bsp::draw_vert", None, None, False, 44),
        ],
        "DRAWINDEXES": [
            ("quake3_bsp::draw_index", None, None, False, 4),
        ],
        "FOGS": [
            ("quake3_bsp::fog", None, None, False, 72),
        ],
        "SURFACES": [
            ("quake3_bsp::surface", None, None, False, 104),
        ],
        "LIGHTMAPS": [
            ("quake3_bsp::lightmap", None, None, False, 49152),
        ],
        "LIGHTGRID": [
            ("quake3_bsp::light_grid", None, None, False, 8),
        ],
        "VISIBILITY": [
            ("quake3_bsp::visibility", None, None, True, None),
        ],
    },
    "rbsp": {
        "SHADERS": [
            ("quake3_bsp::shader", None, None, False, 72),
        ],
        "PLANES": [
            ("quake3_bsp::plane", None, None, False, 16),
        ],
        "NODES": [
            ("quake3_bsp::node", None, None, False, 36),
        ],
        "LEAFS": [
            ("quake3_bsp::leaf", None, None, False, 48),
        ],
        "LEAFSURFACES": [
            ("quake3_bsp::leafsurface", None, None, False, 4),
        ],
        "LEAFBRUSHES": [
            ("quake3_bsp::leafbrush", None, None, False, 4),
        ],
        "MODELS": [
            ("quake3_bsp::model", None, None, False, 40),
        ],
        "BRUSHES": [
            ("quake3_bsp::brush", None, None, False, 12),
        ],
        "BRUSHSIDES": [
            ("raven_bsp::brush_side", None, None, False, 12),
        ],
        "DRAWVERTS": [
            ("raven_bsp::draw_vert", None, None, False, 80),
        ],
        "DRAWINDEXES": [
            ("quake3_bsp::draw_index", None, None, False, 4),
        ],
        "FOGS": [
            ("quake3_bsp::fog", None, None, False, 72),
        ],
        "SURFACES": [
            ("raven_bsp::surface", None, None, False, 148),
        ],
        "LIGHTMAPS": [
            ("quake3_bsp::lightmap", None, None, False, 49152),
        ],
        "LIGHTGRID": [
            ("raven_bsp::light_grid", None, None, False, 30),
        ],
        "VISIBILITY": [
            ("quake3_bsp::visibility", None, None, True, None),
        ],
        "LIGHTARRAY": [
            ("raven_bsp::light_array", None, None, False, 2),
        ],
    },
    "fbsp": {
        "SHADERS": [
            ("quake3_bsp::shader", None, None, False, 72),
        ],
        "PLANES": [
            ("quake3_bsp::plane", None, None, False, 16),
        ],
        "NODES": [
            ("quake3_bsp::node", None, None, False, 36),
        ],
        "LEAFS": [
            ("quake3_bsp::leaf", None, None, False, 48),
        ],
        "LEAFSURFACES": [
            ("quake3_bsp::leafsurface", None, None, False, 4),
        ],
        "LEAFBRUSHES": [
            ("quake3_bsp::leafbrush", None, None, False, 4),
        ],
        "MODELS": [
            ("quake3_bsp::model", None, None, False, 40),
        ],
        "BRUSHES": [
            ("quake3_bsp::brush", None, None, False, 12),
        ],
        "BRUSHSIDES": [
            ("raven_bsp::brush_side", None, None, False, 12),
        ],
        "DRAWVERTS": [
            ("raven_bsp::draw_vert", None, None, False, 80),
        ],
        "DRAWINDEXES": [
            ("quake3_bsp::draw_index", None, None, False, 4),
        ],
        "FOGS": [
            ("quake3_bsp::fog", None, None, False, 72),
        ],
        "SURFACES": [
            ("raven_bsp::surface", None, None, False, 148),
        ],
        "LIGHTMAPS": [
            ("raven_bsp::lightmap_512", None, None, False, 786432),
        ],
        "LIGHTGRID": [
            ("raven_bsp::light_grid", None, None, False, 30),
        ],
        "VISIBILITY": [
            ("quake3_bsp::visibility", None, None, True, None),
        ],
        "LIGHTARRAY": [
            ("raven_bsp::light_array", None, None, False, 2),
        ],
    },
    "source": {
        "PLANES": [
            ("source_bsp::plane", None, None, False, 20),
        ],
        "TEXDATA": [
            ("source_bsp::texdata", None, None, False, 32),
        ],
        "VERTEXES": [
            ("source_bsp::vec3", None, None, False, 12),
        ],
        "VISIBILITY": [
            ("source_bsp::visibility", None, None, True, None),
        ],
        "NODES": [
            ("source_bsp::node", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 32),
            ("source_bsp::node_strata", None, (25,), False, 48),
        ],
        "TEXINFO": [
            ("source_bsp::texinfo", None, None, False, 72),
        ],
        "FACES": [
            ("source_bsp::face", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 56),
            ("source_bsp::face_strata", None, (25,), False, 72),
        ],
        "LEAFS": [
            ("source_bsp::leaf_v0", 0, (17, 18, 19, 20, 21, 22, 23, 24), False, 56),
            ("source_bsp::leaf_v1", 1, (17, 18, 19, 20, 21, 22, 23, 24), False, 32),
            ("source_bsp::leaf_strata", None, (25,), False, 56),
        ],
        "FACEIDS": [
            ("source_bsp::faceid", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 2),
            ("source_bsp::faceid_strata", None, (25,), False, 4),
        ],
        "EDGES": [
            ("source_bsp::edge", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 4),
            ("source_bsp::edge_strata", None, (25,), False, 8),
        ],
        "SURFEDGES": [
            ("source_bsp::surfedge", None, None, False, 4),
        ],
        "MODELS": [
            ("source_bsp::model", None, None, False, 48),
        ],
        "WORLDLIGHTS": [
            ("source_bsp::worldlight_v0", 0, None, False, 88),
            ("source_bsp::worldlight_v1", 1, None, False, 100),
            ("source_bsp::worldlight_v2_strata", 2, (25,), False, 104),
        ],
        "LEAFFACES": [
            ("source_bsp::leafface", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 2),
            ("source_bsp::leafface_strata", None, (25,), False, 4),
        ],
        "LEAFBRUSHES": [
            ("source_bsp::leafbrush", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 2),
            ("source_bsp::leafbrush_strata", None, (25,), False, 4),
        ],
        "BRUSHES": [
            ("source_bsp::brush", None, None, False, 12),
        ],
        "BRUSHSIDES": [
            ("source_bsp::brush_side", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 8),
            ("source_bsp::brush_side_strata", None, (25,), False, 16),
        ],
        "AREAS": [
            ("source_bsp::area", None, None, False, 8),
        ],
        "AREAPORTALS": [
            ("source_bsp::areaportal", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 12),
            ("source_bsp::areaportal_strata", None, (25,), False, 20),
        ],
        "DISPINFO": [
            ("source_bsp::dispinfo", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 176),
            ("source_bsp::dispinfo_strata", 1, (25,), False, 232),
        ],
        "ORIGINALFACES": [
            ("source_bsp::face", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 56),
            ("source_bsp::face_strata", None, (25,), False, 72),
        ],
        "VERTNORMALS": [
            ("source_bsp::vec3", None, None, False, 12),
        ],
        "VERTNORMALINDICES": [
            ("source_bsp::vertnormalindex", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 2),
            ("source_bsp::vertnormalindex_strata", None, (25,), False, 4),
        ],
        "DISP_VERTS": [
            ("source_bsp::disp_vert", None, None, False, 20),
        ],
        "LEAFWATERDATA": [
            ("source_bsp::leafwaterdata", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 12),
            ("source_bsp::leafwaterdata_strata", 1, (25,), False, 12),
        ],
        "PRIMITIVES": [
            ("source_bsp::primitive", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 10),
            ("source_bsp::primitive_strata", 1, (25,), False, 20),
        ],
        "PRIMVERTS": [
            ("source_bsp::vec3", None, None, False, 12),
        ],
        "PRIMINDICES": [
            ("source_bsp::primindex", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 2),
        ],
        "CLIPPORTALVERTS": [
            ("source_bsp::vec3", None, None, False, 12),
        ],
        "CUBEMAPS": [
            ("source_bsp::cubemap_sample", None, None, False, 16),
        ],
        "TEXDATA_STRING_DATA": [
            ("source_bsp::texdata_string_data", None, None, True, None),
        ],
        "TEXDATA_STRING_TABLE": [
            ("source_bsp::texdata_string_table_entry", None, None, False, 4),
        ],
        "OVERLAYS": [
            ("source_bsp::overlay", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 352),
            ("source_bsp::overlay", 0, (25,), False, 352),
            ("source_bsp::overlay_v1_strata", 1, (25,), False, 356),
            ("source_bsp::overlay_v2_strata", 2, (25,), False, 360),
            ("source_bsp::overlays_v3_strata", 3, (25,), True, None),
        ],
        "LEAFMINDISTTOWATER": [
            ("source_bsp::leafmindisttowater", None, None, False, 2),
        ],
        "FACE_MACRO_TEXTURE_INFO": [
            ("source_bsp::face_macro_texture_info", None, None, False, 2),
        ],
        "DISP_TRIS": [
            ("source_bsp::disp_tri", None, None, False, 2),
        ],
        "WATEROVERLAYS": [
            ("source_bsp::wateroverlay", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 1120),
            ("source_bsp::wateroverlay_strata", 1, (25,), False, 1124),
        ],
        "LEAF_AMBIENT_INDEX_HDR": [
            ("source_bsp::leaf_ambient_index", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 4),
            ("source_bsp::leaf_ambient_index_strata", None, (25,), False, 8),
        ],
        "LEAF_AMBIENT_INDEX": [
            ("source_bsp::leaf_ambient_index", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 4),
            ("source_bsp::leaf_ambient_index_strata", None, (25,), False, 8),
        ],
        "WORLDLIGHTS_HDR": [
            ("source_bsp::worldlight_v0", 0, None, False, 88),
            ("source_bsp::worldlight_v1", 1, None, False, 100),
            ("source_bsp::worldlight_v2_strata", 2, (25,), False, 104),
        ],
        "LEAF_AMBIENT_LIGHTING_HDR": [
            ("source_bsp::leaf_ambient_lighting", None, None, False, 28),
        ],
        "LEAF_AMBIENT_LIGHTING": [
            ("source_bsp::leaf_ambient_lighting", None, None, False, 28),
        ],
        "FACES_HDR": [
            ("source_bsp::face", None, (17, 18, 19, 20, 21, 22, 23, 24), False, 56),
            ("source_bsp::face_strata", None, (25,), False, 72),
        ],
        "MAP_FLAGS": [
            ("source_bsp::map_flags", None, None, False, 4),
        ],
        "OVERLAY_FADES": [
            ("source_bsp::overlay_fade", None, None, False, 8),
        ],
        "OVERLAY_SYSTEM_LEVELS": [
            ("source_bsp::overlay_system_level", None, None, False, 4),
        ],
        "LIGHTING": [
            ("source_bsp::lighting", 1, None, True, None),
        ],
        "LIGHTING_HDR": [
            ("source_bsp::lighting", 1, None, True, None),
        ],
        "OCCLUSION": [
            ("source_bsp::occlusion_v1", 1, None, True, None),
            ("source_bsp::occlusion_v2", 2, None, True, None),
        ],
        "PHYSCOLLIDE": [
            ("source_bsp::phys_collide", 0, None, True, None),
        ],
        "PHYSDISP": [
            ("source_bsp::phys_disp", 0, None, True, None),
            ("source_bsp::phys_disp_v2", 2, (25,), True, None),
        ],
        "DISP_LIGHTMAP_SAMPLE_POSITIONS": [
            ("source_bsp::disp_lightmap_sample_positions", 0, None, True, None),
        ],
        "DISP_LIGHTMAP_ALPHAS": [
            ("source_bsp::disp_lightmap_alphas", 0, None, True, None),
        ],
    },
}

GAME_LUMP_TABLES: dict[str, dict[str, list[tuple[Any, ...]]]] = {
    "source": {
        "dprp": [
            ("source_game_lumps::detail_props_v4", 4, True, None),
        ],
        "dplt": [
            ("source_game_lumps::detail_prop_lighting", 0, True, None),
        ],
        "dplh": [
            ("source_game_lumps::detail_prop_lighting", 0, True, None),
        ],
    },
}

BYTE_ORDER_SPECS: frozenset[str] = frozenset(["source_bsp", "source_game_lumps"])
