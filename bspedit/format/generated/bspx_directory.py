# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class BspxDirectory(KaitaiStruct):
    def __init__(self, _io, _parent=None, _root=None):
        super(BspxDirectory, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x42\x53\x50\x58":
            raise kaitaistruct.ValidationNotEqualError(b"\x42\x53\x50\x58", self.magic, self._io, u"/seq/0")
        self.num_lumps = self._io.read_u4le()
        self.lumps = []
        for i in range(self.num_lumps):
            self.lumps.append(BspxDirectory.Lump(self._io, self, self._root))



    def _fetch_instances(self):
        pass
        for i in range(len(self.lumps)):
            pass
            self.lumps[i]._fetch_instances()


    class Lump(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None):
            super(BspxDirectory.Lump, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            self.name = self._io.read_bytes(24)
            self.offset = self._io.read_u4le()
            self.length = self._io.read_u4le()


        def _fetch_instances(self):
            pass



