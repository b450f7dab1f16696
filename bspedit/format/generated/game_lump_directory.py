# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class GameLumpDirectory(KaitaiStruct):
    """A count and `dgamelump_t` entries, in the map's byte order (big-endian on console maps).
    On PC the offsets are absolute file offsets (console maps: relative to the game lump); a
    compressed member (flags bit 0) stores its uncompressed size in `length`, and its
    stored size runs to the next entry's offset (a terminator entry with id 0 marks the end).
    """
    def __init__(self, big_endian, _io, _parent=None, _root=None):
        super(GameLumpDirectory, self).__init__(_io)
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
        self.count = self._io.read_s4le()
        self.entries = []
        for i in range(self.count):
            self.entries.append(GameLumpDirectory.Entry(self._io, self, self._root, self._is_le))


    def _read_be(self):
        self.count = self._io.read_s4be()
        self.entries = []
        for i in range(self.count):
            self.entries.append(GameLumpDirectory.Entry(self._io, self, self._root, self._is_le))



    def _fetch_instances(self):
        pass
        for i in range(len(self.entries)):
            pass
            self.entries[i]._fetch_instances()


    class Entry(KaitaiStruct):
        def __init__(self, _io, _parent=None, _root=None, _is_le=None):
            super(GameLumpDirectory.Entry, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._is_le = _is_le
            self._read()

        def _read(self):
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/entry")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.id = self._io.read_bytes(4)
            self.flags = self._io.read_u2le()
            self.version = self._io.read_u2le()
            self.offset = self._io.read_s4le()
            self.length = self._io.read_s4le()

        def _read_be(self):
            self.id = self._io.read_bytes(4)
            self.flags = self._io.read_u2be()
            self.version = self._io.read_u2be()
            self.offset = self._io.read_s4be()
            self.length = self._io.read_s4be()


        def _fetch_instances(self):
            pass



