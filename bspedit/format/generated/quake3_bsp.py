# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from bspedit.format.generated import quake1_bsp


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Quake3Bsp(KaitaiStruct):
    """Record types of the lumps of Quake 3 IBSP version 46 maps and of version 47 (Return to
    Castle Wolfenstein, Enemy Territory), whose records are the same. A types library: no
    top-level seq. Sources: id Software's Quake 3 qfiles.h (dshader_t, dplane_t, dnode_t,
    dleaf_t, dmodel_t, dbrush_t, dbrushside_t, drawVert_t, dfog_t, dsurface_t) and the seed
    document 000 (Unofficial Quake 3 Map Specs: lightmaps, visdata). `vec3` is quake1_bsp's.
    ENTITIES is text (entities grammar).
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Quake3Bsp, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class Brush(KaitaiStruct):
        """`dbrush_t` (qfiles.h): a convex brush, for collision."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Brush, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.first_side = self._io.read_s4le()
            self.num_sides = self._io.read_s4le()
            self.shader_num = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class BrushSide(KaitaiStruct):
        """`dbrushside_t` (qfiles.h): one side of a brush."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.BrushSide, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.plane_num = self._io.read_s4le()
            self.shader_num = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class DrawIndex(KaitaiStruct):
        """`int` of LUMP_DRAWINDEXES (qfiles.h; seed 000: Meshverts): a vertex offset."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.DrawIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.index = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class DrawVert(KaitaiStruct):
        """`drawVert_t` (qfiles.h; seed 000: Vertexes): a vertex of the drawn surfaces."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.DrawVert, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.xyz = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.st = []
            for i in range(2):
                self.st.append(self._io.read_f4le())

            self.lightmap = []
            for i in range(2):
                self.lightmap.append(self._io.read_f4le())

            self.normal = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.color = []
            for i in range(4):
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



    class Fog(KaitaiStruct):
        """`dfog_t` (qfiles.h; seed 000: Effects): a fog volume."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Fog, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.shader = self._io.read_bytes(64)
            self.brush_num = self._io.read_s4le()
            self.visible_side = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Leaf(KaitaiStruct):
        """`dleaf_t` (qfiles.h): a convex leaf of the BSP tree."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Leaf, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.cluster = self._io.read_s4le()
            self.area = self._io.read_s4le()
            self.mins = Quake3Bsp.Vec3S4(self._io, self, self._root)
            self.maxs = Quake3Bsp.Vec3S4(self._io, self, self._root)
            self.first_leaf_surface = self._io.read_s4le()
            self.num_leaf_surfaces = self._io.read_s4le()
            self.first_leaf_brush = self._io.read_s4le()
            self.num_leaf_brushes = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class Leafbrush(KaitaiStruct):
        """`int` of LUMP_LEAFBRUSHES (qfiles.h): a brush index listed by a leaf."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Leafbrush, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.brush = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Leafsurface(KaitaiStruct):
        """`int` of LUMP_LEAFSURFACES (qfiles.h): a surface index listed by a leaf."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Leafsurface, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.surface = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class LightGrid(KaitaiStruct):
        """A point of the LIGHTGRID lump (q3map / tr_world.c: 8 bytes a point; seed 000: Lightvols):
        the light at one point of a grid over the world model's bounds, of 64 x 64 x 128
        unit cells unless worldspawn's "gridsize" says otherwise.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.LightGrid, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.ambient = []
            for i in range(3):
                self.ambient.append(self._io.read_u1())

            self.directed = []
            for i in range(3):
                self.directed.append(self._io.read_u1())

            self.lat_long = []
            for i in range(2):
                self.lat_long.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            for i in range(len(self.ambient)):
                pass

            for i in range(len(self.directed)):
                pass

            for i in range(len(self.lat_long)):
                pass



    class Lightmap(KaitaiStruct):
        """A lightmap of the LIGHTMAPS lump (seed 000: `ubyte[128][128][3] map`): RGB."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Lightmap, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.map = self._io.read_bytes(49152)


        def _fetch_instances(self):
            pass


    class Model(KaitaiStruct):
        """`dmodel_t` (qfiles.h): the world (0) or a brush entity."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Model, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.mins = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.first_surface = self._io.read_s4le()
            self.num_surfaces = self._io.read_s4le()
            self.first_brush = self._io.read_s4le()
            self.num_brushes = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class Node(KaitaiStruct):
        """`dnode_t` (qfiles.h): an inner node of the BSP tree."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Node, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.plane_num = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4le())

            self.mins = Quake3Bsp.Vec3S4(self._io, self, self._root)
            self.maxs = Quake3Bsp.Vec3S4(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class Plane(KaitaiStruct):
        """`dplane_t` (qfiles.h): a plane, normal . p = dist (no type field, unlike Quake 1/2)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Plane, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.normal = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.dist = self._io.read_f4le()


        def _fetch_instances(self):
            pass
            self.normal._fetch_instances()


    class Shader(KaitaiStruct):
        """`dshader_t` (qfiles.h; seed 000: Textures): a shader used by surfaces or brushes."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Shader, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.shader = self._io.read_bytes(64)
            self.surface_flags = self._io.read_s4le()
            self.content_flags = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Surface(KaitaiStruct):
        """`dsurface_t` (qfiles.h; seed 000: Faces): a drawn surface (planar, patch, mesh, flare)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Surface, self).__init__(_io)
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
            self.lightmap_num = self._io.read_s4le()
            self.lightmap_x = self._io.read_s4le()
            self.lightmap_y = self._io.read_s4le()
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
            self.lightmap_origin._fetch_instances()
            for i in range(len(self.lightmap_vecs)):
                pass
                self.lightmap_vecs[i]._fetch_instances()



    class Vec3S4(KaitaiStruct):
        """An integer bounding-box corner, `int mins[3]` / `int maxs[3]` of qfiles.h."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Vec3S4, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_s4le()
            self.y = self._io.read_s4le()
            self.z = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Visibility(KaitaiStruct):
        """The VISIBILITY lump (seed 000: Visdata): n_vecs bit vectors of sz_vecs bytes; cluster x
        sees cluster y if bit (1 << y % 8) of vecs[x * sz_vecs + y / 8] is set. Any bytes after
        the vectors are kept raw in `rest`; an empty lump (no vis) has no header.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake3Bsp.Visibility, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            if (not (self._io.is_eof())):
                pass
                self.n_vecs = self._io.read_s4le()

            if (not (self._io.is_eof())):
                pass
                self.sz_vecs = self._io.read_s4le()

            if (not (self._io.is_eof())):
                pass
                self.vecs = self._io.read_bytes(self.n_vecs * self.sz_vecs)

            self.rest = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            if (not (self._io.is_eof())):
                pass

            if (not (self._io.is_eof())):
                pass

            if (not (self._io.is_eof())):
                pass




