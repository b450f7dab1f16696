# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from bspedit.format.generated import source_bsp


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class SourceGameLumps(KaitaiStruct):
    """Members of the Source game lump (lump 35) other than static props (sprp, modelled in
    bspedit/lumps/staticprops.py): `dprp` (detail props) and `dplt` / `dplh` (detail prop lighting,
    LDR and HDR). Each whole type reads one member's (decompressed) bytes. Sources: seed 002/003
    ("Game lump") name the members; the layouts are public/gamebspfile.h of source-sdk-2013
    (GAMELUMP_DETAIL_PROPS_VERSION 4, GAMELUMP_DETAIL_PROP_LIGHTING_VERSION 0). dprp version 5
    is not described: its record layout is not established here (no corpus map has one).
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(SourceGameLumps, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class DetailObjectDictEntry(KaitaiStruct):
        """DetailObjectDictLump_t, the .mdl name of a detail model, NUL-padded (gamebspfile.h, DETAIL_NAME_LENGTH 128)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(SourceGameLumps.DetailObjectDictEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = (self._io.read_bytes(128)).decode(u"ASCII")


        def _fetch_instances(self):
            pass


    class DetailObjectV4(KaitaiStruct):
        """DetailObjectLump_t, one detail prop, dprp version 4 (gamebspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(SourceGameLumps.DetailObjectV4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.origin = source_bsp.SourceBsp.Vec3(self._io)
            self.angles = source_bsp.SourceBsp.Vec3(self._io)
            self.detail_model = self._io.read_u2le()
            self.leaf = self._io.read_u2le()
            self.lighting = source_bsp.SourceBsp.ColorRgbExp32(self._io)
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
        def __init__(self, _io, _parent=None, _root=None):
            super(SourceGameLumps.DetailPropLighting, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_lightstyles = self._io.read_s4le()
            self.lightstyles = []
            for i in range(self.num_lightstyles):
                self.lightstyles.append(SourceGameLumps.DetailPropLightstyle(self._io, self, self._root))

            self.trailing = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.lightstyles)):
                pass
                self.lightstyles[i]._fetch_instances()



    class DetailPropLightstyle(KaitaiStruct):
        """DetailPropLightstylesLump_t, the lighting one light style adds to a detail prop (gamebspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(SourceGameLumps.DetailPropLightstyle, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.lighting = source_bsp.SourceBsp.ColorRgbExp32(self._io)
            self.style = self._io.read_u1()


        def _fetch_instances(self):
            pass
            self.lighting._fetch_instances()


    class DetailPropsV4(KaitaiStruct):
        """The dprp member, version 4: the model name dictionary, the sprite dictionary and the
        detail prop records, each an int count then that many records. Bytes after the last
        record (none in well-formed members) are kept raw in `trailing`.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(SourceGameLumps.DetailPropsV4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_dict_entries = self._io.read_s4le()
            self.dict = []
            for i in range(self.num_dict_entries):
                self.dict.append(SourceGameLumps.DetailObjectDictEntry(self._io, self, self._root))

            self.num_sprite_dict_entries = self._io.read_s4le()
            self.sprite_dict = []
            for i in range(self.num_sprite_dict_entries):
                self.sprite_dict.append(SourceGameLumps.DetailSpriteDictEntry(self._io, self, self._root))

            self.num_detail_objects = self._io.read_s4le()
            self.detail_objects = []
            for i in range(self.num_detail_objects):
                self.detail_objects.append(SourceGameLumps.DetailObjectV4(self._io, self, self._root))

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
        def __init__(self, _io, _parent=None, _root=None):
            super(SourceGameLumps.DetailSpriteDictEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ul = source_bsp.SourceBsp.Vec2(self._io)
            self.lr = source_bsp.SourceBsp.Vec2(self._io)
            self.tex_ul = source_bsp.SourceBsp.Vec2(self._io)
            self.tex_lr = source_bsp.SourceBsp.Vec2(self._io)


        def _fetch_instances(self):
            pass
            self.ul._fetch_instances()
            self.lr._fetch_instances()
            self.tex_ul._fetch_instances()
            self.tex_lr._fetch_instances()



