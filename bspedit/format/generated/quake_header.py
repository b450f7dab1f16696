# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class QuakeHeader(KaitaiStruct):
    """Quake 1 (v29, BSP2, 2PSB), GoldSrc (v30), Quake 2 (IBSP 38), Quake 3 (IBSP 46/47,
    RBSP/FBSP): an optional 4-byte ident, an optional version, then `num_lumps` entries
    of (offset, length). Which of the two prefixes a family has comes from its table.
    """
    def __init__(self, ident_size, has_version, num_lumps, _io, _parent=None, _root=None):
        super(QuakeHeader, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self.ident_size = ident_size
        self.has_version = has_version
        self.num_lumps = num_lumps
        self._read()

    def _read(self):
        self.ident = self._io.read_bytes(self.ident_size)
        if self.has_version:
            pass
            self.version = self._io.read_s4le()

        self.lumps = []
        for i in range(self.num_lumps):
            self.lumps.append(QuakeHeader.LumpEntry(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        if self.has_version:
            pass

        for i in range(len(self.lumps)):
            pass
            self.lumps[i]._fetch_instances()


    class LumpEntry(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(QuakeHeader.LumpEntry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.offset = self._io.read_s4le()
            self.length = self._io.read_s4le()


        def _fetch_instances(self):
            pass



