# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class Quake1Bsp(KaitaiStruct):
    """Record types of the lumps of Quake 1 BSP 29 maps and of GoldSrc / Half-Life BSP 30 maps
    (Blue Shift swaps lumps 0 and 1 but keeps every record). A types library: no top-level
    seq. Sources: id Software's Quake 1 bspfile.h (dplane_t, dnode_t, ...) and the seed
    document 001 (GoldSrc v30, BSPPLANE, BSPMIPTEX, ...). `-bspedit-lumps` says which lump
    holds which type; fixed-size types carry their byte size in `-bspedit-size`.
    ENTITIES is text and is described by the entities grammar, not here.
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(Quake1Bsp, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        pass


    def _fetch_instances(self):
        pass

    class Clipnode(KaitaiStruct):
        """`dclipnode_t` (bspfile.h; BSPCLIPNODE of seed 001): a node of a collision hull."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Clipnode, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s2le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass



    class Edge(KaitaiStruct):
        """`dedge_t` (bspfile.h; BSPEDGE of seed 001): an edge between two vertices."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Edge, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.v = []
            for i in range(2):
                self.v.append(self._io.read_u2le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.v)):
                pass



    class Face(KaitaiStruct):
        """`dface_t` (bspfile.h; BSPFACE of seed 001): one polygon of the map."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Face, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_u2le()
            self.side = self._io.read_s2le()
            self.firstedge = self._io.read_s4le()
            self.numedges = self._io.read_s2le()
            self.texinfo = self._io.read_u2le()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.styles)):
                pass



    class Leaf(KaitaiStruct):
        """`dleaf_t` (bspfile.h; BSPLEAF of seed 001): a convex leaf of the BSP tree."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Leaf, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.contents = self._io.read_s4le()
            self.visofs = self._io.read_s4le()
            self.mins = Quake1Bsp.Vec3S2(self._io, self, self._root)
            self.maxs = Quake1Bsp.Vec3S2(self._io, self, self._root)
            self.firstmarksurface = self._io.read_u2le()
            self.nummarksurfaces = self._io.read_u2le()
            self.ambient_level = []
            for i in range(4):
                self.ambient_level.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            for i in range(len(self.ambient_level)):
                pass



    class Lighting(KaitaiStruct):
        """The LIGHTING lump: lightmap samples addressed by each face's `lightofs`; one byte per
        sample in Quake 1 (`byte dlightdata[]`, bspfile.h), RGB triples in GoldSrc (seed 001).
        Kept as raw bytes.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Lighting, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class Marksurface(KaitaiStruct):
        """`unsigned short dmarksurfaces[]` (bspfile.h): a face index listed by a leaf."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Marksurface, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.face = self._io.read_u2le()


        def _fetch_instances(self):
            pass


    class Miptex(KaitaiStruct):
        """`miptex_t` (bspfile.h; BSPMIPTEX of seed 001): the header of one texture."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Miptex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = self._io.read_bytes(16)
            self.width = self._io.read_u4le()
            self.height = self._io.read_u4le()
            self.offsets = []
            for i in range(4):
                self.offsets.append(self._io.read_u4le())



        def _fetch_instances(self):
            pass
            for i in range(len(self.offsets)):
                pass



    class MiptexLump(KaitaiStruct):
        """The TEXTURES lump of Quake 1 (`dmiptexlump_t` of bspfile.h): a count, one offset per
        texture from the start of the lump (-1: the texture is missing), then the miptex
        headers and their 8-bit pixels (w*h, w/2*h/2, w/4*h/4, w/8*h/8 bytes). The count and
        offsets are fields; everything after them is kept as raw bytes in `data` (so that
        every byte of the lump is covered), and `miptexes` views the headers and pixels in it.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.MiptexLump, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.nummiptex = self._io.read_s4le()
            self.dataofs = []
            for i in range(self.nummiptex):
                self.dataofs.append(self._io.read_s4le())

            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.dataofs)):
                pass

            _ = self.miptexes
            if hasattr(self, '_m_miptexes'):
                pass
                for i in range(len(self._m_miptexes)):
                    pass
                    self._m_miptexes[i]._fetch_instances()



        @property
        def miptexes(self):
            """One view per offset: the miptex header and pixels at that offset."""
            if hasattr(self, '_m_miptexes'):
                return self._m_miptexes

            self._m_miptexes = []
            for i in range(self.nummiptex):
                self._m_miptexes.append(Quake1Bsp.MiptexSlot(self.dataofs[i], False, self._io, self, self._root))

            return getattr(self, '_m_miptexes', None)


    class MiptexLumpGoldsrc(KaitaiStruct):
        """The TEXTURES lump of GoldSrc BSP 30 (seed 001: nMipTextures, BSPMIPTEXOFFSET[],
        BSPMIPTEX): as Quake 1's, but textures kept in external WADs have only the 40-byte
        header (offsets 0), and each embedded texture's 4 mip levels are followed by its own
        palette, a 16-bit colour count (256) then the RGB triples (not in seed 001: as GoldSrc
        engines read it, e.g. Xash3D's mod_bmodel.c, a short and 768 bytes), usually then 2
        bytes of padding. The count and offsets are
        fields; everything after them is raw bytes in `data`; `miptexes` views into it.
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.MiptexLumpGoldsrc, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.nummiptex = self._io.read_s4le()
            self.dataofs = []
            for i in range(self.nummiptex):
                self.dataofs.append(self._io.read_s4le())

            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.dataofs)):
                pass

            _ = self.miptexes
            if hasattr(self, '_m_miptexes'):
                pass
                for i in range(len(self._m_miptexes)):
                    pass
                    self._m_miptexes[i]._fetch_instances()



        @property
        def miptexes(self):
            """One view per offset: the miptex header, pixels and palette at that offset."""
            if hasattr(self, '_m_miptexes'):
                return self._m_miptexes

            self._m_miptexes = []
            for i in range(self.nummiptex):
                self._m_miptexes.append(Quake1Bsp.MiptexSlot(self.dataofs[i], True, self._io, self, self._root))

            return getattr(self, '_m_miptexes', None)


    class MiptexSlot(KaitaiStruct):
        """A view (no bytes of its own) of the texture at one offset of the TEXTURES lump."""
        def __init__(self, ofs, has_palette, _io, _parent=None, _root=None):
            super(Quake1Bsp.MiptexSlot, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self.ofs = ofs
            self.has_palette = has_palette
            self._read()

        def _read(self):
            pass


        def _fetch_instances(self):
            pass
            _ = self.header
            if hasattr(self, '_m_header'):
                pass
                self._m_header._fetch_instances()

            _ = self.mip0
            if hasattr(self, '_m_mip0'):
                pass

            _ = self.mip1
            if hasattr(self, '_m_mip1'):
                pass

            _ = self.mip2
            if hasattr(self, '_m_mip2'):
                pass

            _ = self.mip3
            if hasattr(self, '_m_mip3'):
                pass

            _ = self.palette
            if hasattr(self, '_m_palette'):
                pass
                self._m_palette._fetch_instances()


        @property
        def header(self):
            """The miptex header at `ofs`."""
            if hasattr(self, '_m_header'):
                return self._m_header

            if self.ofs != -1:
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs)
                self._m_header = Quake1Bsp.Miptex(self._io, self, self._root)
                self._io.seek(_pos)

            return getattr(self, '_m_header', None)

        @property
        def mip0(self):
            """Full-size 8-bit pixels."""
            if hasattr(self, '_m_mip0'):
                return self._m_mip0

            if  ((self.ofs != -1) and (self.header.offsets[0] != 0)) :
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs + self.header.offsets[0])
                self._m_mip0 = self._io.read_bytes(self.header.width * self.header.height)
                self._io.seek(_pos)

            return getattr(self, '_m_mip0', None)

        @property
        def mip1(self):
            """Half-size pixels."""
            if hasattr(self, '_m_mip1'):
                return self._m_mip1

            if  ((self.ofs != -1) and (self.header.offsets[1] != 0)) :
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs + self.header.offsets[1])
                self._m_mip1 = self._io.read_bytes((self.header.width // 2) * (self.header.height // 2))
                self._io.seek(_pos)

            return getattr(self, '_m_mip1', None)

        @property
        def mip2(self):
            """Quarter-size pixels."""
            if hasattr(self, '_m_mip2'):
                return self._m_mip2

            if  ((self.ofs != -1) and (self.header.offsets[2] != 0)) :
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs + self.header.offsets[2])
                self._m_mip2 = self._io.read_bytes((self.header.width // 4) * (self.header.height // 4))
                self._io.seek(_pos)

            return getattr(self, '_m_mip2', None)

        @property
        def mip3(self):
            """Eighth-size pixels."""
            if hasattr(self, '_m_mip3'):
                return self._m_mip3

            if  ((self.ofs != -1) and (self.header.offsets[3] != 0)) :
                pass
                _pos = self._io.pos()
                self._io.seek(self.ofs + self.header.offsets[3])
                self._m_mip3 = self._io.read_bytes((self.header.width // 8) * (self.header.height // 8))
                self._io.seek(_pos)

            return getattr(self, '_m_mip3', None)

        @property
        def palette(self):
            """GoldSrc only, the palette after the last mip level."""
            if hasattr(self, '_m_palette'):
                return self._m_palette

            if  ((self.has_palette) and (self.ofs != -1) and (self.header.offsets[3] != 0)) :
                pass
                _pos = self._io.pos()
                self._io.seek((self.ofs + self.header.offsets[3]) + (self.header.width // 8) * (self.header.height // 8))
                self._m_palette = Quake1Bsp.Palette(self._io, self, self._root)
                self._io.seek(_pos)

            return getattr(self, '_m_palette', None)


    class Model(KaitaiStruct):
        """`dmodel_t` (bspfile.h; BSPMODEL of seed 001): the world (0) or a brush entity."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Model, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.mins = Quake1Bsp.Vec3(self._io, self, self._root)
            self.maxs = Quake1Bsp.Vec3(self._io, self, self._root)
            self.origin = Quake1Bsp.Vec3(self._io, self, self._root)
            self.headnode = []
            for i in range(4):
                self.headnode.append(self._io.read_s4le())

            self.visleafs = self._io.read_s4le()
            self.firstface = self._io.read_s4le()
            self.numfaces = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            self.origin._fetch_instances()
            for i in range(len(self.headnode)):
                pass



    class Node(KaitaiStruct):
        """`dnode_t` (bspfile.h; BSPNODE of seed 001): an inner node of the BSP tree."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Node, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s2le())

            self.mins = Quake1Bsp.Vec3S2(self._io, self, self._root)
            self.maxs = Quake1Bsp.Vec3S2(self._io, self, self._root)
            self.firstface = self._io.read_u2le()
            self.numfaces = self._io.read_u2le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class Palette(KaitaiStruct):
        """A GoldSrc embedded texture's palette (seed 001), after its 4th mip level."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Palette, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.num_colors = self._io.read_u2le()
            self.colors = self._io.read_bytes(self.num_colors * 3)


        def _fetch_instances(self):
            pass


    class Plane(KaitaiStruct):
        """`dplane_t` (bspfile.h; BSPPLANE of seed 001): a splitting plane, normal . p = dist."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Plane, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.normal = Quake1Bsp.Vec3(self._io, self, self._root)
            self.dist = self._io.read_f4le()
            self.type = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            self.normal._fetch_instances()


    class Surfedge(KaitaiStruct):
        """`int dsurfedges[]` (bspfile.h): an edge of a face's loop."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Surfedge, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.edge = self._io.read_s4le()


        def _fetch_instances(self):
            pass


    class Texinfo(KaitaiStruct):
        """`texinfo_t` (bspfile.h; BSPTEXTUREINFO of seed 001): texture projection of a face."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Texinfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.vecs = []
            for i in range(8):
                self.vecs.append(self._io.read_f4le())

            self.miptex = self._io.read_s4le()
            self.flags = self._io.read_s4le()


        def _fetch_instances(self):
            pass
            for i in range(len(self.vecs)):
                pass



    class Vec3(KaitaiStruct):
        """A point or direction, `vec3_t` (three floats) of bspfile.h."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Vec3, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_f4le()
            self.y = self._io.read_f4le()
            self.z = self._io.read_f4le()


        def _fetch_instances(self):
            pass


    class Vec3S2(KaitaiStruct):
        """A bounding-box corner as `short mins[3]` / `short maxs[3]` of bspfile.h (whole units)."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Vec3S2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.x = self._io.read_s2le()
            self.y = self._io.read_s2le()
            self.z = self._io.read_s2le()


        def _fetch_instances(self):
            pass


    class Vertex(KaitaiStruct):
        """`dvertex_t` (bspfile.h; BSPVERTEX of seed 001): one vertex position."""
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Vertex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.point = Quake1Bsp.Vec3(self._io, self, self._root)


        def _fetch_instances(self):
            pass
            self.point._fetch_instances()


    class Visibility(KaitaiStruct):
        """The VISIBILITY lump of Quake 1 / GoldSrc: no header. Each leaf's `visofs` points to its
        row, a run-length-encoded bit vector over the leafs 1..visleafs of the world: a nonzero
        byte is 8 visibility bits (bit k of byte i: leaf 8*i+k+1 is visible), a zero byte is
        followed by a count byte meaning that many zero bytes. Rows may be shared between
        leafs. The whole lump is kept as raw bytes (bspfile.h: `byte dvisdata[]`).
        """
        def __init__(self, _io, _parent=None, _root=None):
            super(Quake1Bsp.Visibility, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass



