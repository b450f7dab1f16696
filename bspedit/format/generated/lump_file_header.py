# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class LumpFileHeader(KaitaiStruct):
    """The 20-byte lumpfileheader_t, in the byte order of the map the lump file belongs to:
    little-endian for PC maps, big-endian for console (PSBV) maps.
    """
    def __init__(self, big_endian, _io, _parent=None, _root=None):
        super(LumpFileHeader, self).__init__(_io)
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
        self.lump_offset = self._io.read_s4le()
        self.lump_id = self._io.read_s4le()
        self.lump_version = self._io.read_s4le()
        self.lump_length = self._io.read_s4le()
        self.map_revision = self._io.read_s4le()

    def _read_be(self):
        self.lump_offset = self._io.read_s4be()
        self.lump_id = self._io.read_s4be()
        self.lump_version = self._io.read_s4be()
        self.lump_length = self._io.read_s4be()
        self.map_revision = self._io.read_s4be()


    def _fetch_instances(self):
        pass


