# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO
from bspedit.format.generated import quake1_bsp


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Bsp2Bsp(KaitaiStruct):
    """Record types of the Quake 1 "BSP2" and "2PSB" formats, which widen Quake 1's 16-bit
    indices to 32 bits (source: ericw-tools' bspfile.h, which declares both: `bsp2_dnode_t`,
    `bsp2_dface_t`, ... for BSP2 and `bsp2rmq_dnode_t` / `bsp2rmq_dleaf_t` for RemakeQuake's
    2PSB). Unchanged records (planes, vertexes, texinfo, surfedges,
    models, the TEXTURES, VISIBILITY and LIGHTING lumps) are quake1_bsp's types. 2PSB differs from
    BSP2 only in NODES and LEAFS, whose bounding boxes stay 16-bit integers.
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Bsp2Bsp, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class ClipnodeBsp2(KaitaiStruct):
        """BSP2/2PSB `bsp2_dclipnode_t`: a collision hull node with 32-bit children."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.ClipnodeBsp2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass



    class EdgeBsp2(KaitaiStruct):
        """BSP2/2PSB `bsp2_dedge_t`: an edge with 32-bit vertex indices."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.EdgeBsp2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.v = []
            for i in range(2):
                self.v.append(self._io.read_u4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.v)):
                pass



    class FaceBsp2(KaitaiStruct):
        """BSP2/2PSB `bsp2_dface_t`: Quake 1's dface_t with 32-bit fields."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.FaceBsp2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_s4le()
            self.side = self._io.read_s4le()
            self.firstedge = self._io.read_s4le()
            self.numedges = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.styles)):
                pass



    class Leaf2psb(KaitaiStruct):
        """2PSB `bsp2rmq_dleaf_t`: 32-bit indices, 16-bit integer bounds."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.Leaf2psb, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.contents = self._io.read_s4le()
            self.visofs = self._io.read_s4le()
            self.mins = quake1_bsp.Quake1Bsp.Vec3S2(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3S2(self._io)
            self.firstmarksurface = self._io.read_u4le()
            self.nummarksurfaces = self._io.read_u4le()
            self.ambient_level = []
            for i in range(4):
                self.ambient_level.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            for i in range(len(self.ambient_level)):
                pass



    class LeafBsp2(KaitaiStruct):
        """BSP2 `bsp2_dleaf_t`: Quake 1's dleaf_t with float bounds and 32-bit indices."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.LeafBsp2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.contents = self._io.read_s4le()
            self.visofs = self._io.read_s4le()
            self.mins = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.firstmarksurface = self._io.read_u4le()
            self.nummarksurfaces = self._io.read_u4le()
            self.ambient_level = []
            for i in range(4):
                self.ambient_level.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            for i in range(len(self.ambient_level)):
                pass



    class MarksurfaceBsp2(KaitaiStruct):
        """BSP2/2PSB marksurfaces: `unsigned int` face indices listed by leafs."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.MarksurfaceBsp2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.face = self._io.read_u4le()


        def _fetch_instances(self):
            pass


    class Node2psb(KaitaiStruct):
        """2PSB `bsp2rmq_dnode_t`: 32-bit children and face indices, 16-bit integer bounds."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.Node2psb, self).__init__(_io)
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
            self.firstface = self._io.read_u4le()
            self.numfaces = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class NodeBsp2(KaitaiStruct):
        """BSP2 `bsp2_dnode_t`: Quake 1's dnode_t with 32-bit children and float bounds."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Bsp2Bsp.NodeBsp2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4le())

            self.mins = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.maxs = quake1_bsp.Quake1Bsp.Vec3(self._io)
            self.firstface = self._io.read_u4le()
            self.numfaces = self._io.read_u4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()



