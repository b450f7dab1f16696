# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class SourceBsp(KaitaiStruct):
    """Record types of the Source engine's BSP lumps (VBSP 17-24, and Strata Source's VBSP 25).
    A types library: the top level reads nothing. Sources: the seed documents 002 (Japanese)
    and 003 (Russian) translations of Valve's "Source BSP File Format" article, and Valve's
    public/bspfile.h of source-sdk-2013 for the fields they leave out. The Strata (v25) widened
    records follow the Strata wiki's "BSP Version 25" page
    (https://wiki.stratasource.org/modding/formats/bsp-v25) and the record sizes found in a
    real v25 map (corpus: bsptool_momentum_mp_lobby_v25.bsp); where a field layout is only
    inferred from the size, the type's doc says so. Where bsp_tool's Strata branch (a
    third-party reading) disagrees with the wiki, the wiki is followed and the type says so.
    PRIMINDICES of v25 (lump version 1) is not described: the wiki gives no struct for it.
    Byte order: the `big_endian` parameter. PC maps (VBSP) are little-endian; console maps
    (PSBV: Xbox 360, PS3) store the same records big-endian. The nested types' generated
    readers take it as `_is_le` (True for PC maps).
    """
    def __init__(self, big_endian, _io, _parent=None, _root=None):
        super(SourceBsp, self).__init__(_io)
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

    class Area(KaitaiStruct):
        """darea_t (AREAS, lump 20); seed 002/003 "Areas"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Area, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/area")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.numareaportals = self._io.read_s4le()
            self.firstareaportal = self._io.read_s4le()

        def _read_be(self):
            self.numareaportals = self._io.read_s4be()
            self.firstareaportal = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class Areaportal(KaitaiStruct):
        """dareaportal_t (AREAPORTALS, lump 21); seed 002/003 "Areas"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Areaportal, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/areaportal")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.portal_key = self._io.read_u2le()
            self.otherarea = self._io.read_u2le()
            self.first_clip_portal_vert = self._io.read_u2le()
            self.num_clip_portal_verts = self._io.read_u2le()
            self.planenum = self._io.read_s4le()

        def _read_be(self):
            self.portal_key = self._io.read_u2be()
            self.otherarea = self._io.read_u2be()
            self.first_clip_portal_vert = self._io.read_u2be()
            self.num_clip_portal_verts = self._io.read_u2be()
            self.planenum = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class AreaportalStrata(KaitaiStruct):
        """Strata Source v25 dareaportal_t (AREAPORTALS), each field widened to 32 bits (layout inferred from the 20-byte records)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.AreaportalStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/areaportal_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.portal_key = self._io.read_u4le()
            self.otherarea = self._io.read_u4le()
            self.first_clip_portal_vert = self._io.read_u4le()
            self.num_clip_portal_verts = self._io.read_u4le()
            self.planenum = self._io.read_s4le()

        def _read_be(self):
            self.portal_key = self._io.read_u4be()
            self.otherarea = self._io.read_u4be()
            self.first_clip_portal_vert = self._io.read_u4be()
            self.num_clip_portal_verts = self._io.read_u4be()
            self.planenum = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class Brush(KaitaiStruct):
        """dbrush_t (BRUSHES, lump 18); seed 002/003 "Brushes and brushsides"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Brush, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/brush")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.firstside = self._io.read_s4le()
            self.numsides = self._io.read_s4le()
            self.contents = self._io.read_s4le()

        def _read_be(self):
            self.firstside = self._io.read_s4be()
            self.numsides = self._io.read_s4be()
            self.contents = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class BrushSide(KaitaiStruct):
        """dbrushside_t (BRUSHSIDES, lump 19); seed 002/003. source-sdk-2013 declares `short bevel`;
        Alien Swarm, Portal 2 and CS:GO split it into the bytes bevel and thin, read here.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.BrushSide, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/brush_side")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.planenum = self._io.read_u2le()
            self.texinfo = self._io.read_s2le()
            self.dispinfo = self._io.read_s2le()
            self.bevel = self._io.read_u1()
            self.thin = self._io.read_u1()

        def _read_be(self):
            self.planenum = self._io.read_u2be()
            self.texinfo = self._io.read_s2be()
            self.dispinfo = self._io.read_s2be()
            self.bevel = self._io.read_u1()
            self.thin = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class BrushSideStrata(KaitaiStruct):
        """Strata Source v25 dbrushside_t (BRUSHSIDES), 32-bit indices and two padding bytes."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.BrushSideStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/brush_side_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.planenum = self._io.read_u4le()
            self.texinfo = self._io.read_s4le()
            self.dispinfo = self._io.read_s4le()
            self.bevel = self._io.read_u1()
            self.thin = self._io.read_u1()
            self.padding = self._io.read_u2le()

        def _read_be(self):
            self.planenum = self._io.read_u4be()
            self.texinfo = self._io.read_s4be()
            self.dispinfo = self._io.read_s4be()
            self.bevel = self._io.read_u1()
            self.thin = self._io.read_u1()
            self.padding = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class ColorRgbExp32(KaitaiStruct):
        """ColorRGBExp32, a colour as r, g, b bytes times 2 to the power of a signed exponent (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.ColorRgbExp32, self).__init__(_io)
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


    class ColorRgba8(KaitaiStruct):
        """Color, four unsigned bytes (Strata wiki "BSP Version 25", Types)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.ColorRgba8, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/color_rgba8")
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


    class CompressedLightCube(KaitaiStruct):
        """CompressedLightCube, ambient light arriving from the six axis directions (+X, -X, +Y, -Y, +Z, -Z) (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.CompressedLightCube, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/compressed_light_cube")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.color = []
            for i in range(6):
                self.color.append(SourceBsp.ColorRgbExp32(self._io, self, self._root, self._is_le))


        def _read_be(self):
            self.color = []
            for i in range(6):
                self.color.append(SourceBsp.ColorRgbExp32(self._io, self, self._root, self._is_le))



        def _fetch_instances(self):
            pass
            for i in range(len(self.color)):
                pass
                self.color[i]._fetch_instances()



    class CubemapSample(KaitaiStruct):
        """dcubemapsample_t (CUBEMAPS, lump 42); seed 002/003 "Cubemap"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.CubemapSample, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/cubemap_sample")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = []
            for i in range(3):
                self.origin.append(self._io.read_s4le())

            self.size = self._io.read_s4le()

        def _read_be(self):
            self.origin = []
            for i in range(3):
                self.origin.append(self._io.read_s4be())

            self.size = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.origin)):
                pass



    class DispCornerNeighbors(KaitaiStruct):
        """CDispCornerNeighbors, the displacements touching one corner (bspfile.h), padded to 10 bytes."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispCornerNeighbors, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_corner_neighbors")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.neighbors = []
            for i in range(4):
                self.neighbors.append(self._io.read_u2le())

            self.num_neighbors = self._io.read_u1()
            self.padding = self._io.read_u1()

        def _read_be(self):
            self.neighbors = []
            for i in range(4):
                self.neighbors.append(self._io.read_u2be())

            self.num_neighbors = self._io.read_u1()
            self.padding = self._io.read_u1()


        def _fetch_instances(self):
            pass
            for i in range(len(self.neighbors)):
                pass



    class DispCornerNeighborsStrata(KaitaiStruct):
        """DispCornerNeighbors_t of v25 (Strata wiki), four 32-bit indices and a count; 16 + 1 = 17, padded to 20 (alignment 4)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispCornerNeighborsStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_corner_neighbors_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.neighbors = []
            for i in range(4):
                self.neighbors.append(self._io.read_u4le())

            self.num_neighbors = self._io.read_u1()
            self.padding = []
            for i in range(3):
                self.padding.append(self._io.read_u1())


        def _read_be(self):
            self.neighbors = []
            for i in range(4):
                self.neighbors.append(self._io.read_u4be())

            self.num_neighbors = self._io.read_u1()
            self.padding = []
            for i in range(3):
                self.padding.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            for i in range(len(self.neighbors)):
                pass

            for i in range(len(self.padding)):
                pass



    class DispLightmapAlphas(KaitaiStruct):
        """The DISP_LIGHTMAP_ALPHAS lump (32): a byte stream of per-luxel alpha values of the
        displacements (ddispinfo_t.m_iLightmapAlphaStart indexes it; bspfile.h), kept as raw bytes.
        In the corpus map that has it, one byte per DISP_LIGHTMAP_SAMPLE_POSITIONS sample.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispLightmapAlphas, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_lightmap_alphas")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.data = self._io.read_bytes_full()

        def _read_be(self):
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class DispLightmapSamplePosition(KaitaiStruct):
        """One lightmap sample of a displacement in DISP_LIGHTMAP_SAMPLE_POSITIONS (bspfile.h: a byte
        for the triangle index, 255 meaning the next byte plus 255, then 3 bytes of barycentric
        coordinates).
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispLightmapSamplePosition, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_lightmap_sample_position")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.index_low = self._io.read_u1()
            if self.index_low == 255:
                pass
                self.index_high = self._io.read_u1()

            self.barycentric = []
            for i in range(3):
                self.barycentric.append(self._io.read_u1())


        def _read_be(self):
            self.index_low = self._io.read_u1()
            if self.index_low == 255:
                pass
                self.index_high = self._io.read_u1()

            self.barycentric = []
            for i in range(3):
                self.barycentric.append(self._io.read_u1())



        def _fetch_instances(self):
            pass
            if self.index_low == 255:
                pass

            for i in range(len(self.barycentric)):
                pass



    class DispLightmapSamplePositions(KaitaiStruct):
        """The DISP_LIGHTMAP_SAMPLE_POSITIONS lump (34): a byte stream, for each displacement (from
        ddispinfo_t.m_iLightmapSamplePositionStart) and each of its lightmap samples, a triangle
        index and barycentric coordinates (bspfile.h). No count is stored: the samples run to the
        lump's end. Checked on the corpus: one sample per luxel of the displacement's face
        ((width + 1) * (height + 1) of dface_t's lightmap size), the coordinates summing to
        253-255.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispLightmapSamplePositions, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_lightmap_sample_positions")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.samples = []
            i = 0
            while not self._io.is_eof():
                self.samples.append(SourceBsp.DispLightmapSamplePosition(self._io, self, self._root, self._is_le))
                i += 1


        def _read_be(self):
            self.samples = []
            i = 0
            while not self._io.is_eof():
                self.samples.append(SourceBsp.DispLightmapSamplePosition(self._io, self, self._root, self._is_le))
                i += 1



        def _fetch_instances(self):
            pass
            for i in range(len(self.samples)):
                pass
                self.samples[i]._fetch_instances()



    class DispNeighbor(KaitaiStruct):
        """CDispNeighbor, the two sub-neighbours along one edge (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispNeighbor, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_neighbor")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.sub_neighbors = []
            for i in range(2):
                self.sub_neighbors.append(SourceBsp.DispSubNeighbor(self._io, self, self._root, self._is_le))


        def _read_be(self):
            self.sub_neighbors = []
            for i in range(2):
                self.sub_neighbors.append(SourceBsp.DispSubNeighbor(self._io, self, self._root, self._is_le))



        def _fetch_instances(self):
            pass
            for i in range(len(self.sub_neighbors)):
                pass
                self.sub_neighbors[i]._fetch_instances()



    class DispNeighborStrata(KaitaiStruct):
        """DispNeighbor_t of v25 (Strata wiki), two sub-neighbours (2 x 8)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispNeighborStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_neighbor_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.sub_neighbors = []
            for i in range(2):
                self.sub_neighbors.append(SourceBsp.DispSubNeighborStrata(self._io, self, self._root, self._is_le))


        def _read_be(self):
            self.sub_neighbors = []
            for i in range(2):
                self.sub_neighbors.append(SourceBsp.DispSubNeighborStrata(self._io, self, self._root, self._is_le))



        def _fetch_instances(self):
            pass
            for i in range(len(self.sub_neighbors)):
                pass
                self.sub_neighbors[i]._fetch_instances()



    class DispSubNeighbor(KaitaiStruct):
        """CDispSubNeighbor, one half of an edge neighbour of a displacement (bspfile.h), padded to 6 bytes."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispSubNeighbor, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_sub_neighbor")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.neighbor = self._io.read_u2le()
            self.neighbor_orientation = self._io.read_u1()
            self.span = self._io.read_u1()
            self.neighbor_span = self._io.read_u1()
            self.padding = self._io.read_u1()

        def _read_be(self):
            self.neighbor = self._io.read_u2be()
            self.neighbor_orientation = self._io.read_u1()
            self.span = self._io.read_u1()
            self.neighbor_span = self._io.read_u1()
            self.padding = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class DispSubNeighborStrata(KaitaiStruct):
        """DispSubNeighbor_t of v25 (Strata wiki), a 32-bit neighbour index and three bytes; 4 + 3 = 7, padded to 8 (alignment 4)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispSubNeighborStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_sub_neighbor_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.neighbor = self._io.read_u4le()
            self.neighbor_orientation = self._io.read_u1()
            self.span = self._io.read_u1()
            self.neighbor_span = self._io.read_u1()
            self.padding = self._io.read_u1()

        def _read_be(self):
            self.neighbor = self._io.read_u4be()
            self.neighbor_orientation = self._io.read_u1()
            self.span = self._io.read_u1()
            self.neighbor_span = self._io.read_u1()
            self.padding = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class DispTri(KaitaiStruct):
        """CDispTri (DISP_TRIS, lump 48), triangle tags (seed 002/003)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispTri, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_tri")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.tags = self._io.read_u2le()

        def _read_be(self):
            self.tags = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class DispVert(KaitaiStruct):
        """CDispVert (DISP_VERTS, lump 33); seed 002/003 "Displacements"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispVert, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/disp_vert")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.vec = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.dist = self._io.read_f4le()
            self.alpha = self._io.read_f4le()

        def _read_be(self):
            self.vec = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.dist = self._io.read_f4be()
            self.alpha = self._io.read_f4be()


        def _fetch_instances(self):
            pass
            self.vec._fetch_instances()


    class Dispinfo(KaitaiStruct):
        """ddispinfo_t (DISPINFO, lump 26); seed 002/003 "Displacements", neighbour structures from bspfile.h."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Dispinfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/dispinfo")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.start_position = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.disp_vert_start = self._io.read_s4le()
            self.disp_tri_start = self._io.read_s4le()
            self.power = self._io.read_s4le()
            self.min_tess = self._io.read_s4le()
            self.smoothing_angle = self._io.read_f4le()
            self.contents = self._io.read_s4le()
            self.map_face = self._io.read_u2le()
            self.padding = self._io.read_u2le()
            self.lightmap_alpha_start = self._io.read_s4le()
            self.lightmap_sample_position_start = self._io.read_s4le()
            self.edge_neighbors = []
            for i in range(4):
                self.edge_neighbors.append(SourceBsp.DispNeighbor(self._io, self, self._root, self._is_le))

            self.corner_neighbors = []
            for i in range(4):
                self.corner_neighbors.append(SourceBsp.DispCornerNeighbors(self._io, self, self._root, self._is_le))

            self.allowed_verts = []
            for i in range(10):
                self.allowed_verts.append(self._io.read_u4le())


        def _read_be(self):
            self.start_position = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.disp_vert_start = self._io.read_s4be()
            self.disp_tri_start = self._io.read_s4be()
            self.power = self._io.read_s4be()
            self.min_tess = self._io.read_s4be()
            self.smoothing_angle = self._io.read_f4be()
            self.contents = self._io.read_s4be()
            self.map_face = self._io.read_u2be()
            self.padding = self._io.read_u2be()
            self.lightmap_alpha_start = self._io.read_s4be()
            self.lightmap_sample_position_start = self._io.read_s4be()
            self.edge_neighbors = []
            for i in range(4):
                self.edge_neighbors.append(SourceBsp.DispNeighbor(self._io, self, self._root, self._is_le))

            self.corner_neighbors = []
            for i in range(4):
                self.corner_neighbors.append(SourceBsp.DispCornerNeighbors(self._io, self, self._root, self._is_le))

            self.allowed_verts = []
            for i in range(10):
                self.allowed_verts.append(self._io.read_u4be())



        def _fetch_instances(self):
            pass
            self.start_position._fetch_instances()
            for i in range(len(self.edge_neighbors)):
                pass
                self.edge_neighbors[i]._fetch_instances()

            for i in range(len(self.corner_neighbors)):
                pass
                self.corner_neighbors[i]._fetch_instances()

            for i in range(len(self.allowed_verts)):
                pass



    class DispinfoStrata(KaitaiStruct):
        """ddispinfo_t of v25, DISPINFO lump version 1 (Strata wiki "BSP Version 25"). Size: 12
        (startPosition) + 9 x 4 (the ints, the float and m_iMapFace, now unsigned int, so no
        padding after it) = 48, + 4 x 16 edge neighbours = 112, + 4 x 20 corner neighbours = 192,
        + 10 x 4 allowed verts = 232. bsp_tool's Strata branch agrees on 232 (it keeps the
        neighbours as 144 raw bytes). The corpus v25 map has no displacements.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.DispinfoStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/dispinfo_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.start_position = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.disp_vert_start = self._io.read_s4le()
            self.disp_tri_start = self._io.read_s4le()
            self.power = self._io.read_s4le()
            self.min_tess = self._io.read_s4le()
            self.smoothing_angle = self._io.read_f4le()
            self.contents = self._io.read_s4le()
            self.map_face = self._io.read_u4le()
            self.lightmap_alpha_start = self._io.read_s4le()
            self.lightmap_sample_position_start = self._io.read_s4le()
            self.edge_neighbors = []
            for i in range(4):
                self.edge_neighbors.append(SourceBsp.DispNeighborStrata(self._io, self, self._root, self._is_le))

            self.corner_neighbors = []
            for i in range(4):
                self.corner_neighbors.append(SourceBsp.DispCornerNeighborsStrata(self._io, self, self._root, self._is_le))

            self.allowed_verts = []
            for i in range(10):
                self.allowed_verts.append(self._io.read_u4le())


        def _read_be(self):
            self.start_position = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.disp_vert_start = self._io.read_s4be()
            self.disp_tri_start = self._io.read_s4be()
            self.power = self._io.read_s4be()
            self.min_tess = self._io.read_s4be()
            self.smoothing_angle = self._io.read_f4be()
            self.contents = self._io.read_s4be()
            self.map_face = self._io.read_u4be()
            self.lightmap_alpha_start = self._io.read_s4be()
            self.lightmap_sample_position_start = self._io.read_s4be()
            self.edge_neighbors = []
            for i in range(4):
                self.edge_neighbors.append(SourceBsp.DispNeighborStrata(self._io, self, self._root, self._is_le))

            self.corner_neighbors = []
            for i in range(4):
                self.corner_neighbors.append(SourceBsp.DispCornerNeighborsStrata(self._io, self, self._root, self._is_le))

            self.allowed_verts = []
            for i in range(10):
                self.allowed_verts.append(self._io.read_u4be())



        def _fetch_instances(self):
            pass
            self.start_position._fetch_instances()
            for i in range(len(self.edge_neighbors)):
                pass
                self.edge_neighbors[i]._fetch_instances()

            for i in range(len(self.corner_neighbors)):
                pass
                self.corner_neighbors[i]._fetch_instances()

            for i in range(len(self.allowed_verts)):
                pass



    class Edge(KaitaiStruct):
        """dedge_t (EDGES, lump 12), two vertex indices (seed 002/003 "Edges")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Edge, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/edge")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.v = []
            for i in range(2):
                self.v.append(self._io.read_u2le())


        def _read_be(self):
            self.v = []
            for i in range(2):
                self.v.append(self._io.read_u2be())



        def _fetch_instances(self):
            pass
            for i in range(len(self.v)):
                pass



    class EdgeStrata(KaitaiStruct):
        """Strata Source v25 dedge_t (EDGES), widened to 32-bit vertex indices."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.EdgeStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/edge_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.v = []
            for i in range(2):
                self.v.append(self._io.read_u4le())


        def _read_be(self):
            self.v = []
            for i in range(2):
                self.v.append(self._io.read_u4be())



        def _fetch_instances(self):
            pass
            for i in range(len(self.v)):
                pass



    class Face(KaitaiStruct):
        """dface_t (FACES lump 7, ORIGINALFACES lump 27, FACES_HDR lump 58); seed 002/003 "Faces"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Face, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/face")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.planenum = self._io.read_u2le()
            self.side = self._io.read_u1()
            self.on_node = self._io.read_u1()
            self.firstedge = self._io.read_s4le()
            self.numedges = self._io.read_s2le()
            self.texinfo = self._io.read_s2le()
            self.dispinfo = self._io.read_s2le()
            self.surface_fog_volume_id = self._io.read_s2le()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4le()
            self.area = self._io.read_f4le()
            self.lightmap_texture_mins_in_luxels = []
            for i in range(2):
                self.lightmap_texture_mins_in_luxels.append(self._io.read_s4le())

            self.lightmap_texture_size_in_luxels = []
            for i in range(2):
                self.lightmap_texture_size_in_luxels.append(self._io.read_s4le())

            self.orig_face = self._io.read_s4le()
            self.num_prims = self._io.read_u2le()
            self.first_prim_id = self._io.read_u2le()
            self.smoothing_groups = self._io.read_u4le()

        def _read_be(self):
            self.planenum = self._io.read_u2be()
            self.side = self._io.read_u1()
            self.on_node = self._io.read_u1()
            self.firstedge = self._io.read_s4be()
            self.numedges = self._io.read_s2be()
            self.texinfo = self._io.read_s2be()
            self.dispinfo = self._io.read_s2be()
            self.surface_fog_volume_id = self._io.read_s2be()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4be()
            self.area = self._io.read_f4be()
            self.lightmap_texture_mins_in_luxels = []
            for i in range(2):
                self.lightmap_texture_mins_in_luxels.append(self._io.read_s4be())

            self.lightmap_texture_size_in_luxels = []
            for i in range(2):
                self.lightmap_texture_size_in_luxels.append(self._io.read_s4be())

            self.orig_face = self._io.read_s4be()
            self.num_prims = self._io.read_u2be()
            self.first_prim_id = self._io.read_u2be()
            self.smoothing_groups = self._io.read_u4be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.styles)):
                pass

            for i in range(len(self.lightmap_texture_mins_in_luxels)):
                pass

            for i in range(len(self.lightmap_texture_size_in_luxels)):
                pass


        @property
        def dynamic_shadows_disabled(self):
            """The top bit of num_prims."""
            if hasattr(self, '_m_dynamic_shadows_disabled'):
                return self._m_dynamic_shadows_disabled

            self._m_dynamic_shadows_disabled = self.num_prims & 32768 != 0
            return getattr(self, '_m_dynamic_shadows_disabled', None)

        @property
        def prim_count(self):
            """The number of primitives (num_prims without its top bit)."""
            if hasattr(self, '_m_prim_count'):
                return self._m_prim_count

            self._m_prim_count = self.num_prims & 32767
            return getattr(self, '_m_prim_count', None)


    class FaceMacroTextureInfo(KaitaiStruct):
        """dfacemacrotextureinfo_t (FACE_MACRO_TEXTURE_INFO, lump 47), one per face (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.FaceMacroTextureInfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/face_macro_texture_info")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.macro_texture_name_id = self._io.read_s2le()

        def _read_be(self):
            self.macro_texture_name_id = self._io.read_s2be()


        def _fetch_instances(self):
            pass


    class FaceStrata(KaitaiStruct):
        """Strata Source v25 dface_t (FACES, ORIGINALFACES, FACES_HDR), indices widened to 32 bits
        (Strata "BSP Version 25"). Two padding bytes follow on_node so that firstedge is 4-byte
        aligned (inferred from the 72-byte records of the corpus v25 map: under this reading its
        padding is zero, side and on_node are 0 or 1, and firstedge + numedges, texinfo and
        planenum stay within their lumps).
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.FaceStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/face_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.planenum = self._io.read_u4le()
            self.side = self._io.read_u1()
            self.on_node = self._io.read_u1()
            self.padding = self._io.read_u2le()
            self.firstedge = self._io.read_s4le()
            self.numedges = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.dispinfo = self._io.read_s4le()
            self.surface_fog_volume_id = self._io.read_s4le()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4le()
            self.area = self._io.read_f4le()
            self.lightmap_texture_mins_in_luxels = []
            for i in range(2):
                self.lightmap_texture_mins_in_luxels.append(self._io.read_s4le())

            self.lightmap_texture_size_in_luxels = []
            for i in range(2):
                self.lightmap_texture_size_in_luxels.append(self._io.read_s4le())

            self.orig_face = self._io.read_s4le()
            self.num_prims = self._io.read_u4le()
            self.first_prim_id = self._io.read_u4le()
            self.smoothing_groups = self._io.read_u4le()

        def _read_be(self):
            self.planenum = self._io.read_u4be()
            self.side = self._io.read_u1()
            self.on_node = self._io.read_u1()
            self.padding = self._io.read_u2be()
            self.firstedge = self._io.read_s4be()
            self.numedges = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.dispinfo = self._io.read_s4be()
            self.surface_fog_volume_id = self._io.read_s4be()
            self.styles = []
            for i in range(4):
                self.styles.append(self._io.read_u1())

            self.lightofs = self._io.read_s4be()
            self.area = self._io.read_f4be()
            self.lightmap_texture_mins_in_luxels = []
            for i in range(2):
                self.lightmap_texture_mins_in_luxels.append(self._io.read_s4be())

            self.lightmap_texture_size_in_luxels = []
            for i in range(2):
                self.lightmap_texture_size_in_luxels.append(self._io.read_s4be())

            self.orig_face = self._io.read_s4be()
            self.num_prims = self._io.read_u4be()
            self.first_prim_id = self._io.read_u4be()
            self.smoothing_groups = self._io.read_u4be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.styles)):
                pass

            for i in range(len(self.lightmap_texture_mins_in_luxels)):
                pass

            for i in range(len(self.lightmap_texture_size_in_luxels)):
                pass



    class Faceid(KaitaiStruct):
        """dfaceid_t (FACEIDS, lump 11), the Hammer face id of a dface, also a detail prop seed (seed 002/003)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Faceid, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/faceid")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.hammer_face_id = self._io.read_u2le()

        def _read_be(self):
            self.hammer_face_id = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class FaceidStrata(KaitaiStruct):
        """Strata Source v25 dfaceid_t (FACEIDS), widened to 32 bits."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.FaceidStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/faceid_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.hammer_face_id = self._io.read_u4le()

        def _read_be(self):
            self.hammer_face_id = self._io.read_u4be()


        def _fetch_instances(self):
            pass


    class LeafAmbientIndex(KaitaiStruct):
        """dleafambientindex_t (LEAF_AMBIENT_INDEX lump 52, LEAF_AMBIENT_INDEX_HDR lump 51), one per leaf (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafAmbientIndex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leaf_ambient_index")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.ambient_sample_count = self._io.read_u2le()
            self.first_ambient_sample = self._io.read_u2le()

        def _read_be(self):
            self.ambient_sample_count = self._io.read_u2be()
            self.first_ambient_sample = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class LeafAmbientIndexStrata(KaitaiStruct):
        """Strata Source v25 dleafambientindex_t, widened to 32 bits."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafAmbientIndexStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leaf_ambient_index_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.ambient_sample_count = self._io.read_u4le()
            self.first_ambient_sample = self._io.read_u4le()

        def _read_be(self):
            self.ambient_sample_count = self._io.read_u4be()
            self.first_ambient_sample = self._io.read_u4be()


        def _fetch_instances(self):
            pass


    class LeafAmbientLighting(KaitaiStruct):
        """dleafambientlighting_t (LEAF_AMBIENT_LIGHTING lump 56, _HDR lump 55), bspfile.h."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafAmbientLighting, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leaf_ambient_lighting")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.cube = SourceBsp.CompressedLightCube(self._io, self, self._root, self._is_le)
            self.x = self._io.read_u1()
            self.y = self._io.read_u1()
            self.z = self._io.read_u1()
            self.pad = self._io.read_u1()

        def _read_be(self):
            self.cube = SourceBsp.CompressedLightCube(self._io, self, self._root, self._is_le)
            self.x = self._io.read_u1()
            self.y = self._io.read_u1()
            self.z = self._io.read_u1()
            self.pad = self._io.read_u1()


        def _fetch_instances(self):
            pass
            self.cube._fetch_instances()


    class LeafStrata(KaitaiStruct):
        """Strata Source v25 dleaf_t (LEAFS, lump version 2 in the corpus map), 32-bit indices and float bounds, no ambient cube (Strata "BSP Version 25")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leaf_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.contents = self._io.read_s4le()
            self.cluster = self._io.read_s4le()
            self.area_and_flags = self._io.read_u4le()
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.firstleafface = self._io.read_u4le()
            self.numleaffaces = self._io.read_u4le()
            self.firstleafbrush = self._io.read_u4le()
            self.numleafbrushes = self._io.read_u4le()
            self.leaf_water_data_id = self._io.read_s4le()

        def _read_be(self):
            self.contents = self._io.read_s4be()
            self.cluster = self._io.read_s4be()
            self.area_and_flags = self._io.read_u4be()
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.firstleafface = self._io.read_u4be()
            self.numleaffaces = self._io.read_u4be()
            self.firstleafbrush = self._io.read_u4be()
            self.numleafbrushes = self._io.read_u4be()
            self.leaf_water_data_id = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()

        @property
        def area(self):
            """The area (low 17 bits)."""
            if hasattr(self, '_m_area'):
                return self._m_area

            self._m_area = self.area_and_flags & 131071
            return getattr(self, '_m_area', None)

        @property
        def flags(self):
            """The leaf flags (high 15 bits)."""
            if hasattr(self, '_m_flags'):
                return self._m_flags

            self._m_flags = self.area_and_flags >> 17
            return getattr(self, '_m_flags', None)


    class LeafV0(KaitaiStruct):
        """dleaf_version_0_t (LEAFS lump 10, lump version 0), which carries the ambient lighting cube itself (bspfile.h; seed 002/003 "Nodes and leaves")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafV0, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leaf_v0")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.contents = self._io.read_s4le()
            self.cluster = self._io.read_s2le()
            self.area_and_flags = self._io.read_u2le()
            self.mins = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.firstleafface = self._io.read_u2le()
            self.numleaffaces = self._io.read_u2le()
            self.firstleafbrush = self._io.read_u2le()
            self.numleafbrushes = self._io.read_u2le()
            self.leaf_water_data_id = self._io.read_s2le()
            self.ambient_lighting = SourceBsp.CompressedLightCube(self._io, self, self._root, self._is_le)
            self.padding = self._io.read_s2le()

        def _read_be(self):
            self.contents = self._io.read_s4be()
            self.cluster = self._io.read_s2be()
            self.area_and_flags = self._io.read_u2be()
            self.mins = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.firstleafface = self._io.read_u2be()
            self.numleaffaces = self._io.read_u2be()
            self.firstleafbrush = self._io.read_u2be()
            self.numleafbrushes = self._io.read_u2be()
            self.leaf_water_data_id = self._io.read_s2be()
            self.ambient_lighting = SourceBsp.CompressedLightCube(self._io, self, self._root, self._is_le)
            self.padding = self._io.read_s2be()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            self.ambient_lighting._fetch_instances()

        @property
        def area(self):
            """The area (low 9 bits)."""
            if hasattr(self, '_m_area'):
                return self._m_area

            self._m_area = self.area_and_flags & 511
            return getattr(self, '_m_area', None)

        @property
        def flags(self):
            """The leaf flags (high 7 bits)."""
            if hasattr(self, '_m_flags'):
                return self._m_flags

            self._m_flags = self.area_and_flags >> 9
            return getattr(self, '_m_flags', None)


    class LeafV1(KaitaiStruct):
        """dleaf_t (LEAFS lump 10, lump version 1); ambient lighting lives in LEAF_AMBIENT_LIGHTING (seed 002/003 "Nodes and leaves")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafV1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leaf_v1")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.contents = self._io.read_s4le()
            self.cluster = self._io.read_s2le()
            self.area_and_flags = self._io.read_u2le()
            self.mins = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.firstleafface = self._io.read_u2le()
            self.numleaffaces = self._io.read_u2le()
            self.firstleafbrush = self._io.read_u2le()
            self.numleafbrushes = self._io.read_u2le()
            self.leaf_water_data_id = self._io.read_s2le()
            self.padding = self._io.read_s2le()

        def _read_be(self):
            self.contents = self._io.read_s4be()
            self.cluster = self._io.read_s2be()
            self.area_and_flags = self._io.read_u2be()
            self.mins = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.firstleafface = self._io.read_u2be()
            self.numleaffaces = self._io.read_u2be()
            self.firstleafbrush = self._io.read_u2be()
            self.numleafbrushes = self._io.read_u2be()
            self.leaf_water_data_id = self._io.read_s2be()
            self.padding = self._io.read_s2be()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()

        @property
        def area(self):
            """The area (low 9 bits)."""
            if hasattr(self, '_m_area'):
                return self._m_area

            self._m_area = self.area_and_flags & 511
            return getattr(self, '_m_area', None)

        @property
        def flags(self):
            """The leaf flags (high 7 bits)."""
            if hasattr(self, '_m_flags'):
                return self._m_flags

            self._m_flags = self.area_and_flags >> 9
            return getattr(self, '_m_flags', None)


    class Leafbrush(KaitaiStruct):
        """A LEAFBRUSHES (lump 17) entry, an index into BRUSHES (seed 002/003)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Leafbrush, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafbrush")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.brush = self._io.read_u2le()

        def _read_be(self):
            self.brush = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class LeafbrushStrata(KaitaiStruct):
        """Strata Source v25 LEAFBRUSHES entry, widened to 32 bits."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafbrushStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafbrush_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.brush = self._io.read_u4le()

        def _read_be(self):
            self.brush = self._io.read_u4be()


        def _fetch_instances(self):
            pass


    class Leafface(KaitaiStruct):
        """A LEAFFACES (lump 16) entry, an index into FACES (seed 002/003)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Leafface, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafface")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.face = self._io.read_u2le()

        def _read_be(self):
            self.face = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class LeaffaceStrata(KaitaiStruct):
        """Strata Source v25 LEAFFACES entry, widened to 32 bits."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeaffaceStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafface_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.face = self._io.read_u4le()

        def _read_be(self):
            self.face = self._io.read_u4be()


        def _fetch_instances(self):
            pass


    class Leafmindisttowater(KaitaiStruct):
        """A LEAFMINDISTTOWATER (lump 46) entry per leaf (bspfile.h, unsigned short)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Leafmindisttowater, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafmindisttowater")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.min_dist = self._io.read_u2le()

        def _read_be(self):
            self.min_dist = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class Leafwaterdata(KaitaiStruct):
        """dleafwaterdata_t (LEAFWATERDATA, lump 36), bspfile.h."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Leafwaterdata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafwaterdata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.surface_z = self._io.read_f4le()
            self.min_z = self._io.read_f4le()
            self.surface_tex_info_id = self._io.read_s2le()
            self.padding = self._io.read_u2le()

        def _read_be(self):
            self.surface_z = self._io.read_f4be()
            self.min_z = self._io.read_f4be()
            self.surface_tex_info_id = self._io.read_s2be()
            self.padding = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class LeafwaterdataStrata(KaitaiStruct):
        """dleafwaterdata_t of v25, LEAFWATERDATA lump version 1 (Strata wiki), surfaceTexInfoID widened to int (4 + 4 + 4 = 12, the same size as Valve's short and padding)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.LeafwaterdataStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/leafwaterdata_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.surface_z = self._io.read_f4le()
            self.min_z = self._io.read_f4le()
            self.surface_tex_info_id = self._io.read_s4le()

        def _read_be(self):
            self.surface_z = self._io.read_f4be()
            self.min_z = self._io.read_f4be()
            self.surface_tex_info_id = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class Lighting(KaitaiStruct):
        """The LIGHTING (8) and LIGHTING_HDR (53) lumps at lump version 1 (bspfile.h
        LUMP_LIGHTING_VERSION = 1): lightmap samples, one ColorRGBExp32 (4 bytes: r, g, b, signed
        exponent) each, read here as 4-byte samples from the lump's start and a tail of 0-3 bytes;
        a face's dface_t.lightofs is a byte offset into the lump, with one average sample per
        light style just before it. A whole type, not 4-byte records, because the CS:GO branch
        stores one more byte per luxel after a face's samples (measured in
        tg1v1_am_grass2_csgo_v21.bsp: 4 + 5 bytes per luxel for a plain face, 4 + 17 for a bumped
        one; lightofs not multiples of 4; 2764721 bytes), so there the 4-byte grid is not the
        samples' grid and a fixed-size entry would call a working map corrupt. Lump version 0
        has no layout in the public headers and is not described.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Lighting, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/lighting")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.samples = []
            for i in range(self._io.size() // 4):
                self.samples.append(SourceBsp.ColorRgbExp32(self._io, self, self._root, self._is_le))

            self.tail = self._io.read_bytes_full()

        def _read_be(self):
            self.samples = []
            for i in range(self._io.size() // 4):
                self.samples.append(SourceBsp.ColorRgbExp32(self._io, self, self._root, self._is_le))

            self.tail = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.samples)):
                pass
                self.samples[i]._fetch_instances()



    class MapFlags(KaitaiStruct):
        """dflagslump_t (MAP_FLAGS, lump 59), bspfile.h."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.MapFlags, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/map_flags")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.level_flags = self._io.read_u4le()

        def _read_be(self):
            self.level_flags = self._io.read_u4be()


        def _fetch_instances(self):
            pass


    class Model(KaitaiStruct):
        """dmodel_t (MODELS, lump 14); model 0 is worldspawn (seed 002/003 "Models")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Model, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/model")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.headnode = self._io.read_s4le()
            self.firstface = self._io.read_s4le()
            self.numfaces = self._io.read_s4le()

        def _read_be(self):
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.headnode = self._io.read_s4be()
            self.firstface = self._io.read_s4be()
            self.numfaces = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()
            self.origin._fetch_instances()


    class Node(KaitaiStruct):
        """dnode_t, a BSP tree node (NODES, lump 5); seed 002/003 "Nodes and leaves"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Node, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/node")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4le())

            self.mins = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.firstface = self._io.read_u2le()
            self.numfaces = self._io.read_u2le()
            self.area = self._io.read_s2le()
            self.padding = self._io.read_s2le()

        def _read_be(self):
            self.planenum = self._io.read_s4be()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4be())

            self.mins = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3S2(self._io, self, self._root, self._is_le)
            self.firstface = self._io.read_u2be()
            self.numfaces = self._io.read_u2be()
            self.area = self._io.read_s2be()
            self.padding = self._io.read_s2be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class NodeStrata(KaitaiStruct):
        """Strata Source v25 dnode_t, NODES widened to 32-bit indices and float bounds (Strata "BSP Version 25"; layout checked against the corpus v25 map)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.NodeStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/node_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.planenum = self._io.read_s4le()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4le())

            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.firstface = self._io.read_u4le()
            self.numfaces = self._io.read_u4le()
            self.area = self._io.read_s2le()
            self.padding = self._io.read_s2le()

        def _read_be(self):
            self.planenum = self._io.read_s4be()
            self.children = []
            for i in range(2):
                self.children.append(self._io.read_s4be())

            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.firstface = self._io.read_u4be()
            self.numfaces = self._io.read_u4be()
            self.area = self._io.read_s2be()
            self.padding = self._io.read_s2be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.children)):
                pass

            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class OccluderData(KaitaiStruct):
        """doccluderdata_t, one func_occluder of OCCLUSION lump version 2 (bspfile.h LUMP_OCCLUSION_VERSION = 2)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OccluderData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/occluder_data")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.flags = self._io.read_s4le()
            self.firstpoly = self._io.read_s4le()
            self.polycount = self._io.read_s4le()
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.area = self._io.read_s4le()

        def _read_be(self):
            self.flags = self._io.read_s4be()
            self.firstpoly = self._io.read_s4be()
            self.polycount = self._io.read_s4be()
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.area = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class OccluderDataV1(KaitaiStruct):
        """doccluderdataV1_t, one func_occluder of OCCLUSION lump version 1 (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OccluderDataV1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/occluder_data_v1")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.flags = self._io.read_s4le()
            self.firstpoly = self._io.read_s4le()
            self.polycount = self._io.read_s4le()
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.flags = self._io.read_s4be()
            self.firstpoly = self._io.read_s4be()
            self.polycount = self._io.read_s4be()
            self.mins = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.maxs = SourceBsp.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.mins._fetch_instances()
            self.maxs._fetch_instances()


    class OccluderPoly(KaitaiStruct):
        """doccluderpolydata_t, one occluder polygon (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OccluderPoly, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/occluder_poly")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.firstvertexindex = self._io.read_s4le()
            self.vertexcount = self._io.read_s4le()
            self.planenum = self._io.read_s4le()

        def _read_be(self):
            self.firstvertexindex = self._io.read_s4be()
            self.vertexcount = self._io.read_s4be()
            self.planenum = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class OcclusionV1(KaitaiStruct):
        """The OCCLUSION lump (9) at lump version 1: an occluder count and doccluderdataV1_t records,
        a polygon count and doccluderpolydata_t records, a vertex index count and the indices
        (into VERTEXES). No corpus map has this version; the layout is bspfile.h's.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OcclusionV1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/occlusion_v1")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.count = self._io.read_s4le()
            self.data = []
            for i in range(self.count):
                self.data.append(SourceBsp.OccluderDataV1(self._io, self, self._root, self._is_le))

            self.poly_data_count = self._io.read_s4le()
            self.poly_data = []
            for i in range(self.poly_data_count):
                self.poly_data.append(SourceBsp.OccluderPoly(self._io, self, self._root, self._is_le))

            self.vertex_index_count = self._io.read_s4le()
            self.vertex_indices = []
            for i in range(self.vertex_index_count):
                self.vertex_indices.append(self._io.read_s4le())


        def _read_be(self):
            self.count = self._io.read_s4be()
            self.data = []
            for i in range(self.count):
                self.data.append(SourceBsp.OccluderDataV1(self._io, self, self._root, self._is_le))

            self.poly_data_count = self._io.read_s4be()
            self.poly_data = []
            for i in range(self.poly_data_count):
                self.poly_data.append(SourceBsp.OccluderPoly(self._io, self, self._root, self._is_le))

            self.vertex_index_count = self._io.read_s4be()
            self.vertex_indices = []
            for i in range(self.vertex_index_count):
                self.vertex_indices.append(self._io.read_s4be())



        def _fetch_instances(self):
            pass
            for i in range(len(self.data)):
                pass
                self.data[i]._fetch_instances()

            for i in range(len(self.poly_data)):
                pass
                self.poly_data[i]._fetch_instances()

            for i in range(len(self.vertex_indices)):
                pass



    class OcclusionV2(KaitaiStruct):
        """The OCCLUSION lump (9) at lump version 2 (bspfile.h LUMP_OCCLUSION_VERSION): an occluder
        count and doccluderdata_t records, a polygon count and doccluderpolydata_t records, a
        vertex index count and the indices (into VERTEXES). A map without occluders holds three
        zero counts (12 bytes).
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OcclusionV2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/occlusion_v2")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.count = self._io.read_s4le()
            self.data = []
            for i in range(self.count):
                self.data.append(SourceBsp.OccluderData(self._io, self, self._root, self._is_le))

            self.poly_data_count = self._io.read_s4le()
            self.poly_data = []
            for i in range(self.poly_data_count):
                self.poly_data.append(SourceBsp.OccluderPoly(self._io, self, self._root, self._is_le))

            self.vertex_index_count = self._io.read_s4le()
            self.vertex_indices = []
            for i in range(self.vertex_index_count):
                self.vertex_indices.append(self._io.read_s4le())


        def _read_be(self):
            self.count = self._io.read_s4be()
            self.data = []
            for i in range(self.count):
                self.data.append(SourceBsp.OccluderData(self._io, self, self._root, self._is_le))

            self.poly_data_count = self._io.read_s4be()
            self.poly_data = []
            for i in range(self.poly_data_count):
                self.poly_data.append(SourceBsp.OccluderPoly(self._io, self, self._root, self._is_le))

            self.vertex_index_count = self._io.read_s4be()
            self.vertex_indices = []
            for i in range(self.vertex_index_count):
                self.vertex_indices.append(self._io.read_s4be())



        def _fetch_instances(self):
            pass
            for i in range(len(self.data)):
                pass
                self.data[i]._fetch_instances()

            for i in range(len(self.poly_data)):
                pass
                self.poly_data[i]._fetch_instances()

            for i in range(len(self.vertex_indices)):
                pass



    class Overlay(KaitaiStruct):
        """doverlay_t (OVERLAYS, lump 45); seed 002/003 "Overlays". Also OVERLAYS lump version 0 of Strata v25 (the wiki calls version 0 Valve's original format)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Overlay, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlay")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_s4le()
            self.texinfo = self._io.read_s2le()
            self.face_count_and_render_order = self._io.read_u2le()
            self.faces = []
            for i in range(64):
                self.faces.append(self._io.read_s4le())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4le())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4le())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.id = self._io.read_s4be()
            self.texinfo = self._io.read_s2be()
            self.face_count_and_render_order = self._io.read_u2be()
            self.faces = []
            for i in range(64):
                self.faces.append(self._io.read_s4be())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4be())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4be())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            for i in range(len(self.faces)):
                pass

            for i in range(len(self.u)):
                pass

            for i in range(len(self.v)):
                pass

            for i in range(len(self.uv_points)):
                pass
                self.uv_points[i]._fetch_instances()

            self.origin._fetch_instances()
            self.basis_normal._fetch_instances()

        @property
        def face_count(self):
            """The face count (low 14 bits)."""
            if hasattr(self, '_m_face_count'):
                return self._m_face_count

            self._m_face_count = self.face_count_and_render_order & 16383
            return getattr(self, '_m_face_count', None)

        @property
        def render_order(self):
            """The render order (top 2 bits)."""
            if hasattr(self, '_m_render_order'):
                return self._m_render_order

            self._m_render_order = self.face_count_and_render_order >> 14
            return getattr(self, '_m_render_order', None)


    class OverlayFade(KaitaiStruct):
        """doverlayfade_t (OVERLAY_FADES, lump 60), one per overlay (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OverlayFade, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlay_fade")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.fade_dist_min_sq = self._io.read_f4le()
            self.fade_dist_max_sq = self._io.read_f4le()

        def _read_be(self):
            self.fade_dist_min_sq = self._io.read_f4be()
            self.fade_dist_max_sq = self._io.read_f4be()


        def _fetch_instances(self):
            pass


    class OverlaySystemLevel(KaitaiStruct):
        """doverlaysystemlevel_t (OVERLAY_SYSTEM_LEVELS, lump 61), one per overlay (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OverlaySystemLevel, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlay_system_level")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.min_cpu_level = self._io.read_u1()
            self.max_cpu_level = self._io.read_u1()
            self.min_gpu_level = self._io.read_u1()
            self.max_gpu_level = self._io.read_u1()

        def _read_be(self):
            self.min_cpu_level = self._io.read_u1()
            self.max_cpu_level = self._io.read_u1()
            self.min_gpu_level = self._io.read_u1()
            self.max_gpu_level = self._io.read_u1()


        def _fetch_instances(self):
            pass


    class OverlayV1Strata(KaitaiStruct):
        """doverlay_version1_t, OVERLAYS lump version 1 of v25 (Strata wiki): Valve's doverlay_t with
        nTexInfo widened to int. Size: 4 + 4 + 2 + 2 padding (aligning aFaces) + 64 x 4 + 2 x 8
        + 4 x 12 + 12 + 12 = 356. bsp_tool's Strata branch writes "2iH64i22f" (354 packed); the
        wiki's C struct is followed. The face count / render order split is assumed to be Valve's.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OverlayV1Strata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlay_v1_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.face_count_and_render_order = self._io.read_u2le()
            self.padding = self._io.read_u2le()
            self.faces = []
            for i in range(64):
                self.faces.append(self._io.read_s4le())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4le())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4le())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.id = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.face_count_and_render_order = self._io.read_u2be()
            self.padding = self._io.read_u2be()
            self.faces = []
            for i in range(64):
                self.faces.append(self._io.read_s4be())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4be())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4be())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            for i in range(len(self.faces)):
                pass

            for i in range(len(self.u)):
                pass

            for i in range(len(self.v)):
                pass

            for i in range(len(self.uv_points)):
                pass
                self.uv_points[i]._fetch_instances()

            self.origin._fetch_instances()
            self.basis_normal._fetch_instances()

        @property
        def face_count(self):
            """The face count (low 14 bits)."""
            if hasattr(self, '_m_face_count'):
                return self._m_face_count

            self._m_face_count = self.face_count_and_render_order & 16383
            return getattr(self, '_m_face_count', None)

        @property
        def render_order(self):
            """The render order (top 2 bits)."""
            if hasattr(self, '_m_render_order'):
                return self._m_render_order

            self._m_render_order = self.face_count_and_render_order >> 14
            return getattr(self, '_m_render_order', None)


    class OverlayV2Strata(KaitaiStruct):
        """doverlay_version2_t, OVERLAYS lump version 2 of v25 (Strata wiki), overlay_v1_strata and an RGBA tint (356 + 4 = 360)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OverlayV2Strata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlay_v2_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.face_count_and_render_order = self._io.read_u2le()
            self.padding = self._io.read_u2le()
            self.faces = []
            for i in range(64):
                self.faces.append(self._io.read_s4le())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4le())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4le())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.tint = SourceBsp.ColorRgba8(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.id = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.face_count_and_render_order = self._io.read_u2be()
            self.padding = self._io.read_u2be()
            self.faces = []
            for i in range(64):
                self.faces.append(self._io.read_s4be())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4be())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4be())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.tint = SourceBsp.ColorRgba8(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            for i in range(len(self.faces)):
                pass

            for i in range(len(self.u)):
                pass

            for i in range(len(self.v)):
                pass

            for i in range(len(self.uv_points)):
                pass
                self.uv_points[i]._fetch_instances()

            self.origin._fetch_instances()
            self.basis_normal._fetch_instances()
            self.tint._fetch_instances()

        @property
        def face_count(self):
            """The face count (low 14 bits)."""
            if hasattr(self, '_m_face_count'):
                return self._m_face_count

            self._m_face_count = self.face_count_and_render_order & 16383
            return getattr(self, '_m_face_count', None)

        @property
        def render_order(self):
            """The render order (top 2 bits)."""
            if hasattr(self, '_m_render_order'):
                return self._m_render_order

            self._m_render_order = self.face_count_and_render_order >> 14
            return getattr(self, '_m_render_order', None)


    class OverlayV3Strata(KaitaiStruct):
        """doverlay_version3_t, one overlay of OVERLAYS lump version 3 (Strata wiki). Size: 4 + 4 +
        2 + 2 + 4 + 4 = 20, + 2 x 8 (flU, flV) + 4 x 8 (vecUVPoints, Vector2D) = 68, + 3 x 12
        (vecBasisU, vecOrigin, vecBasisNormal) = 104, + 4 (Color) = 108; no padding.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OverlayV3Strata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlay_v3_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.flags = self._io.read_u2le()
            self.render_order = self._io.read_u2le()
            self.face_offset = self._io.read_s4le()
            self.face_count = self._io.read_s4le()
            self.u = SourceBsp.Vec2(self._io, self, self._root, self._is_le)
            self.v = SourceBsp.Vec2(self._io, self, self._root, self._is_le)
            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec2(self._io, self, self._root, self._is_le))

            self.basis_u = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.tint = SourceBsp.ColorRgba8(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.id = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.flags = self._io.read_u2be()
            self.render_order = self._io.read_u2be()
            self.face_offset = self._io.read_s4be()
            self.face_count = self._io.read_s4be()
            self.u = SourceBsp.Vec2(self._io, self, self._root, self._is_le)
            self.v = SourceBsp.Vec2(self._io, self, self._root, self._is_le)
            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec2(self._io, self, self._root, self._is_le))

            self.basis_u = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.tint = SourceBsp.ColorRgba8(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            self.u._fetch_instances()
            self.v._fetch_instances()
            for i in range(len(self.uv_points)):
                pass
                self.uv_points[i]._fetch_instances()

            self.basis_u._fetch_instances()
            self.origin._fetch_instances()
            self.basis_normal._fetch_instances()
            self.tint._fetch_instances()

        @property
        def basis_flipped(self):
            """OVERLAY_FLAG_BASIS_FLIPPED, cross(basis_normal, basis_u) is inverted."""
            if hasattr(self, '_m_basis_flipped'):
                return self._m_basis_flipped

            self._m_basis_flipped = self.flags & 1 != 0
            return getattr(self, '_m_basis_flipped', None)

        @property
        def color_var(self):
            """OVERLAY_FLAG_COLOR_VAR, the tint's rgb is an index into the clvr game lump."""
            if hasattr(self, '_m_color_var'):
                return self._m_color_var

            self._m_color_var = self.flags & 2 != 0
            return getattr(self, '_m_color_var', None)


    class OverlaysV3Strata(KaitaiStruct):
        """The OVERLAYS lump (45) at lump version 3 of v25 (Strata wiki, "Overlays version 3+"): an
        overlay count and a face count, the shared face array (indices into FACES), then the
        doverlay_version3_t records, each naming its run of the face array.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.OverlaysV3Strata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/overlays_v3_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.overlay_count = self._io.read_s4le()
            self.face_count = self._io.read_s4le()
            self.faces = []
            for i in range(self.face_count):
                self.faces.append(self._io.read_s4le())

            self.overlays = []
            for i in range(self.overlay_count):
                self.overlays.append(SourceBsp.OverlayV3Strata(self._io, self, self._root, self._is_le))


        def _read_be(self):
            self.overlay_count = self._io.read_s4be()
            self.face_count = self._io.read_s4be()
            self.faces = []
            for i in range(self.face_count):
                self.faces.append(self._io.read_s4be())

            self.overlays = []
            for i in range(self.overlay_count):
                self.overlays.append(SourceBsp.OverlayV3Strata(self._io, self, self._root, self._is_le))



        def _fetch_instances(self):
            pass
            for i in range(len(self.faces)):
                pass

            for i in range(len(self.overlays)):
                pass
                self.overlays[i]._fetch_instances()



    class PhysCollide(KaitaiStruct):
        """The PHYSCOLLIDE lump (29): the collision models of the world and the brush entities. One
        dphysmodel_t header (modelIndex, dataSize, keydataSize, solidCount) per model, each followed
        by its solids (a size, then that many bytes of the physics engine's collision data) and its
        key-values text; a header with modelIndex -1 ends the list (bspfile.h dphysmodel_t).
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.PhysCollide, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/phys_collide")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.models = []
            i = 0
            while True:
                _ = SourceBsp.PhysModel(self._io, self, self._root, self._is_le)
                self.models.append(_)
                if _.model_index == -1:
                    break
                i += 1
            self.trailing = self._io.read_bytes_full()

        def _read_be(self):
            self.models = []
            i = 0
            while True:
                _ = SourceBsp.PhysModel(self._io, self, self._root, self._is_le)
                self.models.append(_)
                if _.model_index == -1:
                    break
                i += 1
            self.trailing = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.models)):
                pass
                self.models[i]._fetch_instances()



    class PhysDisp(KaitaiStruct):
        """The PHYSDISP lump (28) at lump version 0: dphysdisp_t, a displacement count, the byte size
        of each displacement's collision blob, then the blobs (bspfile.h: "the binary blob for each
        displacement surface's virtual hull"). Lump version 2 (Strata v25) is phys_disp_v2.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.PhysDisp, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/phys_disp")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.num_displacements = self._io.read_u2le()
            self.data_sizes = []
            for i in range(self.num_displacements):
                self.data_sizes.append(self._io.read_u2le())

            self.blobs = []
            for i in range(self.num_displacements):
                self.blobs.append(self._io.read_bytes(self.data_sizes[i]))


        def _read_be(self):
            self.num_displacements = self._io.read_u2be()
            self.data_sizes = []
            for i in range(self.num_displacements):
                self.data_sizes.append(self._io.read_u2be())

            self.blobs = []
            for i in range(self.num_displacements):
                self.blobs.append(self._io.read_bytes(self.data_sizes[i]))



        def _fetch_instances(self):
            pass
            for i in range(len(self.data_sizes)):
                pass

            for i in range(len(self.blobs)):
                pass



    class PhysDispV2(KaitaiStruct):
        """The PHYSDISP lump (28) at lump version 2 of Strata Source v25 maps: phys_disp with a u4
        count and u4 sizes. Source: bsp_tool's Strata branch (snake-biscuits/bsp_tool
        branches/strata/strata.py, PhysicsDisplacement version 2, format "I"), a third-party
        reading; the one corpus map (bsptool_momentum_mp_lobby_v25.bsp, no displacements) agrees
        only as far as its 4 bytes are a zero u4 count.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.PhysDispV2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/phys_disp_v2")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.num_displacements = self._io.read_u4le()
            self.data_sizes = []
            for i in range(self.num_displacements):
                self.data_sizes.append(self._io.read_u4le())

            self.blobs = []
            for i in range(self.num_displacements):
                self.blobs.append(self._io.read_bytes(self.data_sizes[i]))


        def _read_be(self):
            self.num_displacements = self._io.read_u4be()
            self.data_sizes = []
            for i in range(self.num_displacements):
                self.data_sizes.append(self._io.read_u4be())

            self.blobs = []
            for i in range(self.num_displacements):
                self.blobs.append(self._io.read_bytes(self.data_sizes[i]))



        def _fetch_instances(self):
            pass
            for i in range(len(self.data_sizes)):
                pass

            for i in range(len(self.blobs)):
                pass



    class PhysModel(KaitaiStruct):
        """One model of PHYSCOLLIDE, dphysmodel_t and the data it counts (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.PhysModel, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/phys_model")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.model_index = self._io.read_s4le()
            self.data_size = self._io.read_s4le()
            self.keydata_size = self._io.read_s4le()
            self.solid_count = self._io.read_s4le()
            self.solids = []
            for i in range(self.solid_count):
                self.solids.append(SourceBsp.PhysSolid(self._io, self, self._root, self._is_le))

            self.key_data = self._io.read_bytes(self.keydata_size)

        def _read_be(self):
            self.model_index = self._io.read_s4be()
            self.data_size = self._io.read_s4be()
            self.keydata_size = self._io.read_s4be()
            self.solid_count = self._io.read_s4be()
            self.solids = []
            for i in range(self.solid_count):
                self.solids.append(SourceBsp.PhysSolid(self._io, self, self._root, self._is_le))

            self.key_data = self._io.read_bytes(self.keydata_size)


        def _fetch_instances(self):
            pass
            for i in range(len(self.solids)):
                pass
                self.solids[i]._fetch_instances()



    class PhysSolid(KaitaiStruct):
        """One solid of a PHYSCOLLIDE model, its size first (bspfile.h; the blob is the physics engine's collision model)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.PhysSolid, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/phys_solid")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.size = self._io.read_s4le()
            self.data = self._io.read_bytes(self.size)

        def _read_be(self):
            self.size = self._io.read_s4be()
            self.data = self._io.read_bytes(self.size)


        def _fetch_instances(self):
            pass


    class Plane(KaitaiStruct):
        """dplane_t, a plane (PLANES, lump 1); seed 002/003 "Planes"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Plane, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/plane")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.dist = self._io.read_f4le()
            self.type = self._io.read_s4le()

        def _read_be(self):
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.dist = self._io.read_f4be()
            self.type = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.normal._fetch_instances()


    class Primindex(KaitaiStruct):
        """A PRIMINDICES (lump 39) entry, an index into PRIMVERTS (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Primindex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/primindex")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.vert = self._io.read_u2le()

        def _read_be(self):
            self.vert = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class Primitive(KaitaiStruct):
        """dprimitive_t (PRIMITIVES, lump 37), bspfile.h; seed 002/003 mention it with t-junction fixes."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Primitive, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/primitive")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.type = self._io.read_u1()
            self.padding = self._io.read_u1()
            self.first_index = self._io.read_u2le()
            self.index_count = self._io.read_u2le()
            self.first_vert = self._io.read_u2le()
            self.vert_count = self._io.read_u2le()

        def _read_be(self):
            self.type = self._io.read_u1()
            self.padding = self._io.read_u1()
            self.first_index = self._io.read_u2be()
            self.index_count = self._io.read_u2be()
            self.first_vert = self._io.read_u2be()
            self.vert_count = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class PrimitiveStrata(KaitaiStruct):
        """dprimitive_t of v25, PRIMITIVES lump version 1 (Strata wiki). Size: type (1 byte) + 3
        padding bytes to align the first unsigned int, + 4 x 4 = 20. bsp_tool's Strata branch
        writes "B4I" (17 bytes packed); the wiki's C struct is followed.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.PrimitiveStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/primitive_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.type = self._io.read_u1()
            self.padding = []
            for i in range(3):
                self.padding.append(self._io.read_u1())

            self.first_index = self._io.read_u4le()
            self.index_count = self._io.read_u4le()
            self.first_vert = self._io.read_u4le()
            self.vert_count = self._io.read_u4le()

        def _read_be(self):
            self.type = self._io.read_u1()
            self.padding = []
            for i in range(3):
                self.padding.append(self._io.read_u1())

            self.first_index = self._io.read_u4be()
            self.index_count = self._io.read_u4be()
            self.first_vert = self._io.read_u4be()
            self.vert_count = self._io.read_u4be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.padding)):
                pass



    class Surfedge(KaitaiStruct):
        """A surfedge (SURFEDGES, lump 13), a signed index into EDGES; negative means the edge is walked from its second vertex (seed 002/003 "Surfedges")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Surfedge, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/surfedge")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.edge = self._io.read_s4le()

        def _read_be(self):
            self.edge = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class Texdata(KaitaiStruct):
        """dtexdata_t (TEXDATA, lump 2); seed 002/003 "Texdata"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Texdata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/texdata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.reflectivity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.name_string_table_id = self._io.read_s4le()
            self.width = self._io.read_s4le()
            self.height = self._io.read_s4le()
            self.view_width = self._io.read_s4le()
            self.view_height = self._io.read_s4le()

        def _read_be(self):
            self.reflectivity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.name_string_table_id = self._io.read_s4be()
            self.width = self._io.read_s4be()
            self.height = self._io.read_s4be()
            self.view_width = self._io.read_s4be()
            self.view_height = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.reflectivity._fetch_instances()


    class TexdataStringData(KaitaiStruct):
        """The TEXDATA_STRING_DATA lump (43): NUL-terminated material names packed one after
        another; TEXDATA_STRING_TABLE holds the offset of each. Kept as raw bytes (seed 002/003
        "Texdata").
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.TexdataStringData, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/texdata_string_data")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.data = self._io.read_bytes_full()

        def _read_be(self):
            self.data = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass


    class TexdataStringTableEntry(KaitaiStruct):
        """A TEXDATA_STRING_TABLE (lump 44) entry, a byte offset into TEXDATA_STRING_DATA (seed 002/003 "Texdata")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.TexdataStringTableEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/texdata_string_table_entry")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.offset = self._io.read_s4le()

        def _read_be(self):
            self.offset = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class Texinfo(KaitaiStruct):
        """texinfo_t (TEXINFO, lump 6); seed 002/003 "Texinfo"."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Texinfo, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/texinfo")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.texture_vecs = []
            for i in range(8):
                self.texture_vecs.append(self._io.read_f4le())

            self.lightmap_vecs = []
            for i in range(8):
                self.lightmap_vecs.append(self._io.read_f4le())

            self.flags = self._io.read_s4le()
            self.texdata = self._io.read_s4le()

        def _read_be(self):
            self.texture_vecs = []
            for i in range(8):
                self.texture_vecs.append(self._io.read_f4be())

            self.lightmap_vecs = []
            for i in range(8):
                self.lightmap_vecs.append(self._io.read_f4be())

            self.flags = self._io.read_s4be()
            self.texdata = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            for i in range(len(self.texture_vecs)):
                pass

            for i in range(len(self.lightmap_vecs)):
                pass



    class Vec2(KaitaiStruct):
        """A Vector2D of two floats (mathlib Vector2D)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Vec2, self).__init__(_io)
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
        """A Vector of three floats (x, y, z). Used by VERTEXES, VERTNORMALS, PRIMVERTS and CLIPPORTALVERTS records (bspfile.h dvertex_t, Vector)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Vec3, self).__init__(_io)
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


    class Vec3S2(KaitaiStruct):
        """Three shorts, a coarse integer bounding-box corner (bspfile.h short mins[3] / maxs[3])."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Vec3S2, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/vec3_s2")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.x = self._io.read_s2le()
            self.y = self._io.read_s2le()
            self.z = self._io.read_s2le()

        def _read_be(self):
            self.x = self._io.read_s2be()
            self.y = self._io.read_s2be()
            self.z = self._io.read_s2be()


        def _fetch_instances(self):
            pass


    class Vertnormalindex(KaitaiStruct):
        """A VERTNORMALINDICES (lump 31) entry, an index into VERTNORMALS (seed 002/003)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Vertnormalindex, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/vertnormalindex")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.vertnormal = self._io.read_u2le()

        def _read_be(self):
            self.vertnormal = self._io.read_u2be()


        def _fetch_instances(self):
            pass


    class VertnormalindexStrata(KaitaiStruct):
        """Strata Source v25 VERTNORMALINDICES entry, widened to 32 bits."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.VertnormalindexStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/vertnormalindex_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.vertnormal = self._io.read_u4le()

        def _read_be(self):
            self.vertnormal = self._io.read_u4be()


        def _fetch_instances(self):
            pass


    class VisOffsets(KaitaiStruct):
        """One cluster's entry of dvis_t bitofs (DVIS_PVS, DVIS_PAS)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.VisOffsets, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/vis_offsets")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.pvs = self._io.read_s4le()
            self.pas = self._io.read_s4le()

        def _read_be(self):
            self.pvs = self._io.read_s4be()
            self.pas = self._io.read_s4be()


        def _fetch_instances(self):
            pass


    class Visibility(KaitaiStruct):
        """The VISIBILITY lump (4): dvis_t, a cluster count and a (PVS, PAS) byte offset pair per
        cluster, then the run-length compressed bit vectors those offsets point into, kept as raw
        bytes (seed 002/003 "Visibility").
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Visibility, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/visibility")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.num_clusters = self._io.read_s4le()
            self.byte_offsets = []
            for i in range(self.num_clusters):
                self.byte_offsets.append(SourceBsp.VisOffsets(self._io, self, self._root, self._is_le))

            self.rows = self._io.read_bytes_full()

        def _read_be(self):
            self.num_clusters = self._io.read_s4be()
            self.byte_offsets = []
            for i in range(self.num_clusters):
                self.byte_offsets.append(SourceBsp.VisOffsets(self._io, self, self._root, self._is_le))

            self.rows = self._io.read_bytes_full()


        def _fetch_instances(self):
            pass
            for i in range(len(self.byte_offsets)):
                pass
                self.byte_offsets[i]._fetch_instances()



    class Wateroverlay(KaitaiStruct):
        """dwateroverlay_t (WATEROVERLAYS, lump 50), bspfile.h."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.Wateroverlay, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/wateroverlay")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_s4le()
            self.texinfo = self._io.read_s2le()
            self.face_count_and_render_order = self._io.read_u2le()
            self.faces = []
            for i in range(256):
                self.faces.append(self._io.read_s4le())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4le())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4le())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.id = self._io.read_s4be()
            self.texinfo = self._io.read_s2be()
            self.face_count_and_render_order = self._io.read_u2be()
            self.faces = []
            for i in range(256):
                self.faces.append(self._io.read_s4be())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4be())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4be())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            for i in range(len(self.faces)):
                pass

            for i in range(len(self.u)):
                pass

            for i in range(len(self.v)):
                pass

            for i in range(len(self.uv_points)):
                pass
                self.uv_points[i]._fetch_instances()

            self.origin._fetch_instances()
            self.basis_normal._fetch_instances()


    class WateroverlayStrata(KaitaiStruct):
        """dwateroverlay_t of v25, WATEROVERLAYS lump version 1 (Strata wiki): nTexInfo widened to
        int. Size: 4 + 4 + 2 + 2 padding + 256 x 4 + 2 x 8 + 4 x 12 + 12 + 12 = 1124. bsp_tool's
        Strata branch writes "2iH256i22f" (1122 packed); the wiki's C struct is followed.
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.WateroverlayStrata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/wateroverlay_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.face_count_and_render_order = self._io.read_u2le()
            self.padding = self._io.read_u2le()
            self.faces = []
            for i in range(256):
                self.faces.append(self._io.read_s4le())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4le())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4le())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)

        def _read_be(self):
            self.id = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.face_count_and_render_order = self._io.read_u2be()
            self.padding = self._io.read_u2be()
            self.faces = []
            for i in range(256):
                self.faces.append(self._io.read_s4be())

            self.u = []
            for i in range(2):
                self.u.append(self._io.read_f4be())

            self.v = []
            for i in range(2):
                self.v.append(self._io.read_f4be())

            self.uv_points = []
            for i in range(4):
                self.uv_points.append(SourceBsp.Vec3(self._io, self, self._root, self._is_le))

            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.basis_normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)


        def _fetch_instances(self):
            pass
            for i in range(len(self.faces)):
                pass

            for i in range(len(self.u)):
                pass

            for i in range(len(self.v)):
                pass

            for i in range(len(self.uv_points)):
                pass
                self.uv_points[i]._fetch_instances()

            self.origin._fetch_instances()
            self.basis_normal._fetch_instances()


    class WorldlightV0(KaitaiStruct):
        """dworldlight_t as of lump version 0 (WORLDLIGHTS lump 15, WORLDLIGHTS_HDR lump 54), without shadow_cast_offset (bspfile.h dworldlight_version0_t; seed 002/003 "Worldlights")."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.WorldlightV0, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/worldlight_v0")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.intensity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.cluster = self._io.read_s4le()
            self.type = self._io.read_s4le()
            self.style = self._io.read_s4le()
            self.stopdot = self._io.read_f4le()
            self.stopdot2 = self._io.read_f4le()
            self.exponent = self._io.read_f4le()
            self.radius = self._io.read_f4le()
            self.constant_attn = self._io.read_f4le()
            self.linear_attn = self._io.read_f4le()
            self.quadratic_attn = self._io.read_f4le()
            self.flags = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.owner = self._io.read_s4le()

        def _read_be(self):
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.intensity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.cluster = self._io.read_s4be()
            self.type = self._io.read_s4be()
            self.style = self._io.read_s4be()
            self.stopdot = self._io.read_f4be()
            self.stopdot2 = self._io.read_f4be()
            self.exponent = self._io.read_f4be()
            self.radius = self._io.read_f4be()
            self.constant_attn = self._io.read_f4be()
            self.linear_attn = self._io.read_f4be()
            self.quadratic_attn = self._io.read_f4be()
            self.flags = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.owner = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.intensity._fetch_instances()
            self.normal._fetch_instances()


    class WorldlightV1(KaitaiStruct):
        """dworldlight_t as of lump version 1 (WORLDLIGHTS, WORLDLIGHTS_HDR), with shadow_cast_offset (bspfile.h)."""
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.WorldlightV1, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/worldlight_v1")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.intensity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.shadow_cast_offset = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.cluster = self._io.read_s4le()
            self.type = self._io.read_s4le()
            self.style = self._io.read_s4le()
            self.stopdot = self._io.read_f4le()
            self.stopdot2 = self._io.read_f4le()
            self.exponent = self._io.read_f4le()
            self.radius = self._io.read_f4le()
            self.constant_attn = self._io.read_f4le()
            self.linear_attn = self._io.read_f4le()
            self.quadratic_attn = self._io.read_f4le()
            self.flags = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.owner = self._io.read_s4le()

        def _read_be(self):
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.intensity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.shadow_cast_offset = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.cluster = self._io.read_s4be()
            self.type = self._io.read_s4be()
            self.style = self._io.read_s4be()
            self.stopdot = self._io.read_f4be()
            self.stopdot2 = self._io.read_f4be()
            self.exponent = self._io.read_f4be()
            self.radius = self._io.read_f4be()
            self.constant_attn = self._io.read_f4be()
            self.linear_attn = self._io.read_f4be()
            self.quadratic_attn = self._io.read_f4be()
            self.flags = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.owner = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.intensity._fetch_instances()
            self.normal._fetch_instances()
            self.shadow_cast_offset._fetch_instances()


    class WorldlightV2Strata(KaitaiStruct):
        """dworldlight_version2_t of v25, WORLDLIGHTS / WORLDLIGHTS_HDR lump version 2 (Strata wiki).
        Size: 4 Vectors (48) + cluster (4) + type (emittype_t, an int enum: 4) = 56; mode (uint8)
        at 56, one implicit padding byte at 57 to align the uint16 _padding at 58; style at 60;
        11 more 4-byte fields = 104. (The corpus v25 map still has version 1 worldlights.)
        """
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(SourceBsp.WorldlightV2Strata, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/worldlight_v2_strata")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.intensity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.shadow_cast_offset = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.cluster = self._io.read_s4le()
            self.type = self._io.read_s4le()
            self.mode = self._io.read_u1()
            self.implicit_padding = self._io.read_u1()
            self.padding = self._io.read_u2le()
            self.style = self._io.read_s4le()
            self.stopdot = self._io.read_f4le()
            self.stopdot2 = self._io.read_f4le()
            self.exponent = self._io.read_f4le()
            self.radius = self._io.read_f4le()
            self.constant_attn = self._io.read_f4le()
            self.linear_attn = self._io.read_f4le()
            self.quadratic_attn = self._io.read_f4le()
            self.flags = self._io.read_s4le()
            self.texinfo = self._io.read_s4le()
            self.owner = self._io.read_s4le()

        def _read_be(self):
            self.origin = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.intensity = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.normal = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.shadow_cast_offset = SourceBsp.Vec3(self._io, self, self._root, self._is_le)
            self.cluster = self._io.read_s4be()
            self.type = self._io.read_s4be()
            self.mode = self._io.read_u1()
            self.implicit_padding = self._io.read_u1()
            self.padding = self._io.read_u2be()
            self.style = self._io.read_s4be()
            self.stopdot = self._io.read_f4be()
            self.stopdot2 = self._io.read_f4be()
            self.exponent = self._io.read_f4be()
            self.radius = self._io.read_f4be()
            self.constant_attn = self._io.read_f4be()
            self.linear_attn = self._io.read_f4be()
            self.quadratic_attn = self._io.read_f4be()
            self.flags = self._io.read_s4be()
            self.texinfo = self._io.read_s4be()
            self.owner = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            self.origin._fetch_instances()
            self.intensity._fetch_instances()
            self.normal._fetch_instances()
            self.shadow_cast_offset._fetch_instances()



