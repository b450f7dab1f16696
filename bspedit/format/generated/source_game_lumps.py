# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class SourceGameLumps(KaitaiStruct):
    """Members of the Source game lump (lump 35): `dprp` (detail props), `dplt` / `dplh` (detail
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
    """
    def __init__(self, big_endian, _io, _parent=None, _root=None):
        super(SourceGameLumps, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.big_endian = big_endian
        self._read()

    def _read(self):
        _on = self.big_endian
        if _on == False:
            pass
            self._is_le = True
        elif _on == True:
            pass
            self._is_le = False
        if not hasattr(self, '_is_le'):
            raise kaitaistruct.UndecidedEndiannessError("/")
        elif self._is_le == True:
            self._read_le()
        elif self._is_le == False:
            self._read_be()

    def _read_le(self):
        pass

    def _read_be(self):
        pass


    def _fetch_instances(self):
        pass

    class Color32(KaitaiStruct):
        """color32 (basetypes.h), an RGBA colour of four bytes."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.Color32, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/color32")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.r = self._io.read_u1()
            self.g = self._io.read_u1()
            self.b = self._io.read_u1()
            self.a = self._io.read_u1()

        def _read_be(self):
            self.r = self._io.read_u1()
            self.g = self._io.read_u1()
            self.b = self._io.read_u1()
            self.a = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class ColorRgbExp32(KaitaiStruct):
        """ColorRGBExp32 (bspfile.h); source_bsp's color_rgb_exp32."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.ColorRgbExp32, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/color_rgb_exp32")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.r = self._io.read_u1()
            self.g = self._io.read_u1()
            self.b = self._io.read_u1()
            self.exponent = self._io.read_s1()

        def _read_be(self):
            self.r = self._io.read_u1()
            self.g = self._io.read_u1()
            self.b = self._io.read_u1()
            self.exponent = self._io.read_s1()


        def _fetch_instances(self):
            pass


    class DetailObjectDictEntry(KaitaiStruct):
        """DetailObjectDictLump_t, the .mdl name of a detail model, NUL-padded (gamebspfile.h, DETAIL_NAME_LENGTH 128)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.DetailObjectDictEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/detail_object_dict_entry")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.name = (self._io.read_bytes(128)).decode(u"ASCII")

        def _read_be(self):
            self.name = (self._io.read_bytes(128)).decode(u"ASCII")


        def _fetch_instances(self):
            pass


    class DetailObjectV4(KaitaiStruct):
        """DetailObjectLump_t, one detail prop, dprp version 4 (gamebspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.DetailObjectV4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/detail_object_v4")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.detail_model = self._io.read_u2le()
            self.leaf = self._io.read_u2le()
            self.lighting = SourceGameLumps.ColorRgbExp32(self._io, self, self._root, self._is_le)
            self.light_styles = self._io.read_u4le()
            self.light_style_count = self._io.read_u1()
            self.sway_amount = self._io.read_u1()
            self.shape_angle = self._io.read_u1()
            self.shape_size = self._io.read_u1()
            self.orientation = self._io.read_u1()
            self.padding2 = self._io.read_bytes(3)
            self.type = self._io.read_u1()
            self.padding3 = self._io.read_bytes(3)
            self.scale = self._io.read_f4le()

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.detail_model = self._io.read_u2be()
            self.leaf = self._io.read_u2be()
            self.lighting = SourceGameLumps.ColorRgbExp32(self._io, self, self._root, self._is_le)
            self.light_styles = self._io.read_u4be()
            self.light_style_count = self._io.read_u1()
            self.sway_amount = self._io.read_u1()
            self.shape_angle = self._io.read_u1()
            self.shape_size = self._io.read_u1()
            self.orientation = self._io.read_u1()
            self.padding2 = self._io.read_bytes(3)
            self.type = self._io.read_u1()
            self.padding3 = self._io.read_bytes(3)
            self.scale = self._io.read_f4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting._fetch_instances()


    class DetailPropLighting(KaitaiStruct):
        """The dplt (LDR) or dplh (HDR) member, version 0: an int count, then that many
        DetailPropLightstylesLump_t records. Bytes after the last record are kept raw in
        `trailing`.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.DetailPropLighting, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/detail_prop_lighting")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.num_lightstyles = self._io.read_s4le()
            self.lightstyles = []
            for i in range(self.num_lightstyles):
                self.lightstyles.append(SourceGameLumps.DetailPropLightstyle(self._io, self, self._root, self._is_le))

            self.trailing = self._io.read_bytes_full()

        def _read_be(self):
            self.num_lightstyles = self._io.read_s4be()
            self.lightstyles = []
            for i in range(self.num_lightstyles):
                self.lightstyles.append(SourceGameLumps.DetailPropLightstyle(self._io, self, self._root, self._is_le))

            self.trailing = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.lightstyles)):
                pass
                self.lightstyles[i]._fetch_instances()



    class DetailPropLightstyle(KaitaiStruct):
        """DetailPropLightstylesLump_t, the lighting one light style adds to a detail prop (gamebspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.DetailPropLightstyle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/detail_prop_lightstyle")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.lighting = SourceGameLumps.ColorRgbExp32(self._io, self, self._root, self._is_le)
            self.style = self._io.read_u1()

        def _read_be(self):
            self.lighting = SourceGameLumps.ColorRgbExp32(self._io, self, self._root, self._is_le)
            self.style = self._io.read_u1()


        def _fetch_instances(self):
            pass
            self.lighting._fetch_instances()


    class DetailPropsV4(KaitaiStruct):
        """The dprp member, version 4: the model name dictionary, the sprite dictionary and the
        detail prop records, each an int count then that many records. Bytes after the last
        record (none in well-formed members) are kept raw in `trailing`.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.DetailPropsV4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/detail_props_v4")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.num_dict_entries = self._io.read_s4le()
            self.dict = []
            for i in range(self.num_dict_entries):
                self.dict.append(SourceGameLumps.DetailObjectDictEntry(self._io, self, self._root, self._is_le))

            self.num_sprite_dict_entries = self._io.read_s4le()
            self.sprite_dict = []
            for i in range(self.num_sprite_dict_entries):
                self.sprite_dict.append(SourceGameLumps.DetailSpriteDictEntry(self._io, self, self._root, self._is_le))

            self.num_detail_objects = self._io.read_s4le()
            self.detail_objects = []
            for i in range(self.num_detail_objects):
                self.detail_objects.append(SourceGameLumps.DetailObjectV4(self._io, self, self._root, self._is_le))

            self.trailing = self._io.read_bytes_full()

        def _read_be(self):
            self.num_dict_entries = self._io.read_s4be()
            self.dict = []
            for i in range(self.num_dict_entries):
                self.dict.append(SourceGameLumps.DetailObjectDictEntry(self._io, self, self._root, self._is_le))

            self.num_sprite_dict_entries = self._io.read_s4be()
            self.sprite_dict = []
            for i in range(self.num_sprite_dict_entries):
                self.sprite_dict.append(SourceGameLumps.DetailSpriteDictEntry(self._io, self, self._root, self._is_le))

            self.num_detail_objects = self._io.read_s4be()
            self.detail_objects = []
            for i in range(self.num_detail_objects):
                self.detail_objects.append(SourceGameLumps.DetailObjectV4(self._io, self, self._root, self._is_le))

            self.trailing = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.dict)):
                pass
                self.dict[i]._fetch_instances()

            for i in range(len(self.sprite_dict)):
                pass
                self.sprite_dict[i]._fetch_instances()

            for i in range(len(self.detail_objects)):
                pass
                self.detail_objects[i]._fetch_instances()



    class DetailSpriteDictEntry(KaitaiStruct):
        """DetailSpriteDictLump_t, a sprite's rectangle and its texture coordinates (gamebspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.DetailSpriteDictEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/detail_sprite_dict_entry")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.ul = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)
            self.lr = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)
            self.tex_ul = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)
            self.tex_lr = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.ul = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)
            self.lr = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)
            self.tex_ul = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)
            self.tex_lr = SourceGameLumps.Vec2(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.ul._fetch_instances()
            self.lr._fetch_instances()
            self.tex_ul._fetch_instances()
            self.tex_lr._fetch_instances()


    class StaticPropV10(KaitaiStruct):
        """StaticPropLump_t of sprp version 10 as CS:GO writes it (76 bytes): version 9 and extended
        flags. The 72-byte version 10 is static_prop_v7_star.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV10, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v10")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4le()
            self.flags_ex = self._io.read_u4le()

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4be()
            self.flags_ex = self._io.read_u4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            for i in range(len(self.cpu_gpu_levels)):
                pass

            self.diffuse._fetch_instances()


    class StaticPropV11(KaitaiStruct):
        """StaticPropLump_t of sprp version 11 (CS:GO), also Strata's version 12: version 10 and a
        uniform scale. Black Mesa's 80-byte version 11 differs but is read as this one.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV11, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v11")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4le()
            self.flags_ex = self._io.read_u4le()
            self.scale = self._io.read_f4le()

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4be()
            self.flags_ex = self._io.read_u4be()
            self.scale = self._io.read_f4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            for i in range(len(self.cpu_gpu_levels)):
                pass

            self.diffuse._fetch_instances()


    class StaticPropV13(KaitaiStruct):
        """StaticPropLump_t of sprp version 13 (Strata): version 10 and a scale per axis.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV13, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v13")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4le()
            self.flags_ex = self._io.read_u4le()
            self.scale = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4be()
            self.flags_ex = self._io.read_u4be()
            self.scale = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            for i in range(len(self.cpu_gpu_levels)):
                pass

            self.diffuse._fetch_instances()
            self.scale._fetch_instances()


    class StaticPropV4(KaitaiStruct):
        """StaticPropLump_t of sprp version 4 (gamebspfile.h), the first layout.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v4")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()


    class StaticPropV5(KaitaiStruct):
        """StaticPropLump_t of sprp version 5: version 4 and a forced fade scale.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV5, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v5")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()


    class StaticPropV6(KaitaiStruct):
        """StaticPropLump_t of sprp version 6: version 5 and the DirectX level range.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV6, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v6")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.min_dx_level = self._io.read_u2le()
            self.max_dx_level = self._io.read_u2le()

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.min_dx_level = self._io.read_u2be()
            self.max_dx_level = self._io.read_u2be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()


    class StaticPropV7(KaitaiStruct):
        """StaticPropLump_t of sprp version 7 as Left 4 Dead writes it (68 bytes): version 6 and a
        diffuse modulation colour. Source 2013's 72-byte version 7 is static_prop_v7_star.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV7, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v7")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.min_dx_level = self._io.read_u2le()
            self.max_dx_level = self._io.read_u2le()
            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.min_dx_level = self._io.read_u2be()
            self.max_dx_level = self._io.read_u2be()
            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            self.diffuse._fetch_instances()


    class StaticPropV7Star(KaitaiStruct):
        """Source 2013's rearranged StaticPropLump_t ("v7*", 72 bytes), stored as sprp version 7,
        or as 10 by TF2 and other Source 2013 multiplayer games (CS:GO's 10 is static_prop_v10):
        version 6 with the flags moved to a u32 after the DirectX levels and a lightmap size
        added. Byte 31, where the older layouts keep the flags, is alignment padding.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV7Star, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v7_star")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.padding = self._io.read_bytes(1)
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.min_dx_level = self._io.read_u2le()
            self.max_dx_level = self._io.read_u2le()
            self.flags = self._io.read_u4le()
            self.lightmap_size = []
            for i in range(2):
                self.lightmap_size.append(self._io.read_u2le())


        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.padding = self._io.read_bytes(1)
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.min_dx_level = self._io.read_u2be()
            self.max_dx_level = self._io.read_u2be()
            self.flags = self._io.read_u4be()
            self.lightmap_size = []
            for i in range(2):
                self.lightmap_size.append(self._io.read_u2be())



        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            for i in range(len(self.lightmap_size)):
                pass



    class StaticPropV8(KaitaiStruct):
        """StaticPropLump_t of sprp version 8: version 5, then the CPU and GPU level ranges (instead
        of the DirectX levels) and a diffuse modulation colour.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV8, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v8")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            for i in range(len(self.cpu_gpu_levels)):
                pass

            self.diffuse._fetch_instances()


    class StaticPropV9(KaitaiStruct):
        """StaticPropLump_t of sprp version 9: version 8 and the Xbox 360 switch.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.StaticPropV9, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/static_prop_v9")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2le()
            self.first_leaf = self._io.read_u2le()
            self.leaf_count = self._io.read_u2le()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4le()
            self.fade_min = self._io.read_f4le()
            self.fade_max = self._io.read_f4le()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4le()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4le()

        def _read_be(self):
            self.origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.angles = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.model = self._io.read_u2be()
            self.first_leaf = self._io.read_u2be()
            self.leaf_count = self._io.read_u2be()
            self.solid = self._io.read_u1()
            self.flags = self._io.read_u1()
            self.skin = self._io.read_s4be()
            self.fade_min = self._io.read_f4be()
            self.fade_max = self._io.read_f4be()
            self.lighting_origin = SourceGameLumps.Vec3(self._io, self, self._root, self._is_le)
            self.fade_scale = self._io.read_f4be()
            self.cpu_gpu_levels = []
            for i in range(4):
                self.cpu_gpu_levels.append(self._io.read_u1())

            self.diffuse = SourceGameLumps.Color32(self._io, self, self._root, self._is_le)
            self.disable_x360 = self._io.read_u4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.angles._fetch_instances()
            self.lighting_origin._fetch_instances()
            for i in range(len(self.cpu_gpu_levels)):
                pass

            self.diffuse._fetch_instances()


    class Vec2(KaitaiStruct):
        """A Vector2D of two floats (mathlib Vector2D); source_bsp's vec2."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.Vec2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/vec2")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()

        def _read_be(self):
            self.x = self._io.read_f4be()
            self.y = self._io.read_f4be()


        def _fetch_instances(self):
            pass


    class Vec3(KaitaiStruct):
        """A Vector of three floats (x, y, z); source_bsp's vec3."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceGameLumps.Vec3, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/vec3")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()
            self.z = self._io.read_f4le()

        def _read_be(self):
            self.x = self._io.read_f4be()
            self.y = self._io.read_f4be()
            self.z = self._io.read_f4be()


        def _fetch_instances(self):
            pass



