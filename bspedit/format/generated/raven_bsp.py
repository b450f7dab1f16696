# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from bspedit.format.generated import quake1_bsp


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class RavenBsp(KaitaiStruct):
    """Record types of Raven's RBSP version 1 (Jedi Outcast, Jedi Academy, Soldier of Fortune 2)
    and qfusion's FBSP version 1 (Warsow): Quake 3's format with four lightmaps (light styles)
    per surface and vertex, a brush side's drawn surface, a light grid of four styles and an
    extra LIGHTARRAY lump. Sources: Raven's Jedi Academy qfiles.h (MAXLIGHTMAPS = 4,
    `mapVert_t`, `dsurface_t`, `dbrushside_t`, `dgrid_t`) and qfusion's qfiles.h (`rdface_t`,
    `rdbrushside_t`, QF_LIGHTMAP_WIDTH); unchanged records are quake3_bsp's types. ENTITIES
    is text (entities grammar). FBSP records follow Raven's layout, as q3map2 writes both;
    note that qfusion's qfiles.h declares the surface's lightmap corners as one interleaved
    `lm_offset[4][2]` array where Raven has `lightmapX[4]` then `lightmapY[4]` (same size;
    which one FBSP files hold is not checked: the corpus has no RBSP or FBSP map).
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(RavenBsp, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class BrushSide(KaitaiStruct):
        """RBSP `dbrushside_t` / qfusion `rdbrushside_t` (qfiles.h): Quake 3's brush side plus its drawn surface."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RavenBsp.BrushSide, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.plane_num = self._io.read_s4le()
            self.shader_num = self._io.read_s4le()
            self.draw_surf_num = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class DrawVert(KaitaiStruct):
        """RBSP `mapVert_t` / FBSP `dvertex_t` (qfiles.h): a vertex with four lightmap styles."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RavenBsp.DrawVert, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.xyz = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.st = []
            for i in range(2):
                self.st.append(self._io.read_f4le())

            self.lightmap = []
            for i in range(8):
                self.lightmap.append(self._io.read_f4le())

            self.normal = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.color = []
            for i in range(16):
                self.color.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            self.xyz._fetch_instances()
            for i in range(len(self.st)):
                pass

            for i in range(len(self.lightmap)):
                pass

            self.normal._fetch_instances()
            for i in range(len(self.color)):
                pass



    class LightArray(KaitaiStruct):
        """An entry of the LIGHTARRAY lump (RBSP/FBSP qfiles.h: `unsigned short`): for each cell of
        the light grid, the index of its point in LIGHTGRID (identical points are shared).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(RavenBsp.LightArray, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.grid_index = self._io.read_u2le()


        def _fetch_instances(self):
            pass


    class LightGrid(KaitaiStruct):
        """RBSP `dgrid_t` / FBSP `dgridlight_t` (qfiles.h): a light grid point of 4 styles."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RavenBsp.LightGrid, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ambient = []
            for i in range(12):
                self.ambient.append(self._io.read_u1())

            self.directed = []
            for i in range(12):
                self.directed.append(self._io.read_u1())

            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lat_long = []
            for i in range(2):
                self.lat_long.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            for i in range(len(self.ambient)):
                pass

            for i in range(len(self.directed)):
                pass

            for i in range(len(self.styles)):
                pass

            for i in range(len(self.lat_long)):
                pass



    class Lightmap512(KaitaiStruct):
        """A lightmap of an FBSP LIGHTMAPS lump: 512 x 512 RGB texels (qfusion's qfiles.h:
        QF_LIGHTMAP_WIDTH = QF_LIGHTMAP_HEIGHT = 512; RBSP keeps Quake 3's 128).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(RavenBsp.Lightmap512, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.map = self._io.read_bytes(786432)


        def _fetch_instances(self):
            pass


    class Surface(KaitaiStruct):
        """RBSP `dsurface_t` / qfusion `rdface_t` (qfiles.h): Quake 3's surface with four lightmap styles."""
        def __init__(self, _io, _parent=None, _root=None):
            super(RavenBsp.Surface, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.shader_num = self._io.read_s4le()
            self.fog_num = self._io.read_s4le()
            self.surface_type = self._io.read_s4le()
            self.first_vert = self._io.read_s4le()
            self.num_verts = self._io.read_s4le()
            self.first_index = self._io.read_s4le()
            self.num_indexes = self._io.read_s4le()
            self.lightmap_styles = []
            for i in range(4):
                self.lightmap_styles.append(self._io.read_u1())

            self.vertex_styles = []
            for i in range(4):
                self.vertex_styles.append(self._io.read_u1())

            self.lightmap_num = []
            for i in range(4):
                self.lightmap_num.append(self._io.read_s4le())

            self.lightmap_x = []
            for i in range(4):
                self.lightmap_x.append(self._io.read_s4le())

            self.lightmap_y = []
            for i in range(4):
                self.lightmap_y.append(self._io.read_s4le())

            self.lightmap_width = self._io.read_s4le()
            self.lightmap_height = self._io.read_s4le()
            self.lightmap_origin = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.lightmap_vecs = []
            for i in range(3):
                self.lightmap_vecs.append(quake1_bsp.Quake1Bsp.Vec3(self._io))

            self.patch_width = self._io.read_s4le()
            self.patch_height = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.lightmap_styles)):
                pass

            for i in range(len(self.vertex_styles)):
                pass

            for i in range(len(self.lightmap_num)):
                pass

            for i in range(len(self.lightmap_x)):
                pass

            for i in range(len(self.lightmap_y)):
                pass

            self.lightmap_origin._fetch_instances()
            for i in range(len(self.lightmap_vecs)):
                pass
                self.lightmap_vecs[i]._fetch_instances()




