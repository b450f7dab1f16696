# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class SourceGameLumps(KaitaiStruct):
    """Members of the Source game lump (lump 35) other than static props (sprp, modelled in
    bspedit/lumps/staticprops.py): `dprp` (detail props) and `dplt` / `dplh` (detail prop lighting,
    LDR and HDR). Each whole type reads one member's (decompressed) bytes. Sources: seed 002/003
    ("Game lump") name the members; the layouts are public/gamebspfile.h of source-sdk-2013
    (GAMELUMP_DETAIL_PROPS_VERSION 4, GAMELUMP_DETAIL_PROP_LIGHTING_VERSION 0). dprp version 5
    is not described: its record layout is not established here (no corpus map has one).
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



