# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class LzmaHeader(KaitaiStruct):
    def __init__(self, _io, _parent=None, _root=None):
        super(LzmaHeader, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not self.magic == b"\x4C\x5A\x4D\x41":
            raise kaitaistruct.ValidationNotEqualError(b"\x4C\x5A\x4D\x41", self.magic, self._io, u"/seq/0")
        self.actual_size = self._io.read_u4le()
        self.lzma_size = self._io.read_u4le()
        self.properties = self._io.read_bytes(5)


    def _fetch_instances(self):
        pass


