# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from bspedit.format.generated import quake1_bsp


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Quake2Bsp(KaitaiStruct):
    """Record types of the lumps of Quake 2 IBSP version 38 maps. A types library: no top-level
    seq. Sources: id Software's Quake 2 qfiles.h (dplane_t, dnode_t, texinfo_t, dface_t,
    dleaf_t, dmodel_t, dbrush_t, dbrushside_t, darea_t, dareaportal_t, dvis_t) and the seed
    document 004 (Quake 2). Records identical to Quake 1's (planes, vertexes, edges,
    surfedges) are quake1_bsp's types. ENTITIES is text (entities grammar).
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Quake2Bsp, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class Area(KaitaiStruct):
        """`darea_t` (qfiles.h): an area, a region separated from others by area portals."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Area, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.numareaportals = self._io.read_s4le()
            self.firstareaportal = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Areaportal(KaitaiStruct):
        """`dareaportal_t` (qfiles.h): a portal from one area into another."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Areaportal, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.portalnum = self._io.read_s4le()
            self.otherarea = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class BitofsPair(KaitaiStruct):
        """One `bitofs[i]` entry of `dvis_t` (qfiles.h): offsets of a cluster's rows."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.BitofsPair, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.pvs = self._io.read_s4le()
            self.phs = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Brush(KaitaiStruct):
        """`dbrush_t` (qfiles.h): a convex brush, for collision."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Brush, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.firstside = self._io.read_s4le()
            self.numsides = self._io.read_s4le()
            self.contents = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class BrushSide(KaitaiStruct):
        """`dbrushside_t` (qfiles.h): one side of a brush."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.BrushSide, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_u2le()
            self.texinfo = self._io.read_s2le()


        def _fetch_instances(self):
            pass


    class Face(KaitaiStruct):
        """`dface_t` (qfiles.h): one polygon of the map."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Face, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_u2le()
            self.side = self._io.read_s2le()
            self.firstedge = self._io.read_s4le()
            self.numedges = self._io.read_s2le()
            self.texinfo = self._io.read_s2le()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.styles)):
                pass



    class Leaf(KaitaiStruct):
        """`dleaf_t` (qfiles.h): a convex leaf of the BSP tree."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Leaf, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.contents = self._io.read_s4le()
            self.cluster = self._io.read_s2le()
            self.area = self._io.read_s2le()
            self.mins = quake1_bsp.Quake1Bsp.Vec3S2(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3S2(self._io)
            self.firstleafface = self._io.read_u2le()
            self.numleaffaces = self._io.read_u2le()
            self.firstleafbrush = self._io.read_u2le()
            self.numleafbrushes = self._io.read_u2le()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class Leafbrush(KaitaiStruct):
        """`unsigned short dleafbrushes[]` (qfiles.h): a brush index listed by a leaf."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Leafbrush, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.brush = self._io.read_u2le()


        def _fetch_instances(self):
            pass


    class Leafface(KaitaiStruct):
        """`unsigned short dleaffaces[]` (qfiles.h): a face index listed by a leaf."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Leafface, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.face = self._io.read_u2le()


        def _fetch_instances(self):
            pass


    class Lighting(KaitaiStruct):
        """The LIGHTING lump (`byte dlightdata[]`, qfiles.h): RGB lightmap samples addressed by
        each face's `lightofs`. Kept as raw bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Lighting, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class Model(KaitaiStruct):
        """`dmodel_t` (qfiles.h): the world (0) or a brush entity."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Model, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.mins = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.origin = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.headnode = self._io.read_s4le()
            self.firstface = self._io.read_s4le()
            self.numfaces = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            self.origin._fetch_instances()


    class Node(KaitaiStruct):
        """`dnode_t` (qfiles.h): an inner node of the BSP tree."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Node, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4le())

            self.mins = quake1_bsp.Quake1Bsp.Vec3S2(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3S2(self._io)
            self.firstface = self._io.read_u2le()
            self.numfaces = self._io.read_u2le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class Pop(KaitaiStruct):
        """The POP lump (LUMP_POP of qfiles.h; qbsp3's `byte dpop[256]`): 256 bytes carried over
        from Quake 1's registered-version check (pop.lmp); Quake 2 never reads them, and maps
        written by qbsp3 hold zeros. Kept as raw bytes (some maps have an empty lump).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Pop, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class Texinfo(KaitaiStruct):
        """`texinfo_t` (qfiles.h): texture projection, surface flags and texture name."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Texinfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.vecs = []
            for i in range(8):
                self.vecs.append(self._io.read_f4le())

            self.flags = self._io.read_s4le()
            self.value = self._io.read_s4le()
            self.texture = self._io.read_bytes(32)
            self.nexttexinfo = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.vecs)):
                pass



    class Visibility(KaitaiStruct):
        """The VISIBILITY lump (`dvis_t`, qfiles.h): the number of clusters, then per cluster the
        offsets (from the start of the lump) of its PVS and PHS rows (`bitofs[numclusters][2]`,
        DVIS_PVS = 0, DVIS_PHS = 1). The rows that follow are run-length-encoded bit vectors over
        the clusters (a nonzero byte is 8 bits; a zero byte is followed by a count of zero bytes)
        and are kept as raw bytes in `rows`. An empty lump (no vis) has no header.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake2Bsp.Visibility, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            if (not (self._io.is_eof())):
                pass
                self.numclusters = self._io.read_s4le()

            if (not (self._io.is_eof())):
                pass
                self.bitofs = []
                for i in range(self.numclusters):
                    self.bitofs.append(Quake2Bsp.BitofsPair(self._io, self, self._root))


            self.rows = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            if (not (self._io.is_eof())):
                pass

            if (not (self._io.is_eof())):
                pass
                for i in range(len(self.bitofs)):
                    pass
                    self.bitofs[i]._fetch_instances()





