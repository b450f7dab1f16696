# This is a generated file! Please edit source .ksy file and use kaitai-struct-compiler to rebuild
# type: ignore

import kaitaistruct
from kaitaistruct import KaitaiStruct, KaitaiStream, BytesIO


if getattr(kaitaistruct, 'API_VERSION', (0, 9)) < (0, 11):
    raise Exception("Incompatible Kaitai Struct Python API: 0.11 or later is required, but you have %s" % (kaitaistruct.__version__))

class VbspHeader(KaitaiStruct):
    """Magic, version, 64 lump_t, map revision: 1036 bytes. PC maps start 'VBSP' and are
    little-endian; console maps (Xbox 360, PS3) start 'PSBV' (the same int written
    big-endian) and store every field of the header big-endian. Left 4 Dead 2 v21 maps order
    lump_t as (version, offset, length, fourCC); CS:GO and Portal 2 v21 maps use the
    standard (offset, length, version, fourCC). Both readings are offered; the caller
    keeps the one whose directory is consistent.
    """
    def __init__(self, _io, _parent=None, _root=None):
        super(VbspHeader, self).__init__(_io)
        self._parent = _parent
        self._root = _root or self
        self._read()

    def _read(self):
        self.magic = self._io.read_bytes(4)
        if not  ((self.magic == b"\x56\x42\x53\x50") or (self.magic == b"\x50\x53\x42\x56")) :
            raise kaitaistruct.ValidationNotAnyOfError(self.magic, self._io, u"/seq/0")
        self.body = VbspHeader.Body(self._io, self, self._root)


    def _fetch_instances(self):
        pass
        self.body._fetch_instances()

    class Body(KaitaiStruct):
        """Everything after the magic, in the byte order the magic names."""
        def __init__(self, _io, _parent=None, _root=None):
            super(VbspHeader.Body, self).__init__(_io)
            self._parent = _parent
            self._root = _root
            self._read()

        def _read(self):
            _on = self._root.magic
            if _on == b"\x56\x42\x53\x50":
                pass
                self._is_le = True
            elif _on == b"\x50\x53\x42\x56":
                pass
                self._is_le = False
            if not hasattr(self, '_is_le'):
                raise kaitaistruct.UndecidedEndiannessError("/types/body")
            elif self._is_le == True:
                self._read_le()
            elif self._is_le == False:
                self._read_be()

        def _read_le(self):
            self.version = self._io.read_s4le()
            self.directory = self._io.read_bytes(64 * 16)
            self.map_revision = self._io.read_s4le()

        def _read_be(self):
            self.version = self._io.read_s4be()
            self.directory = self._io.read_bytes(64 * 16)
            self.map_revision = self._io.read_s4be()


        def _fetch_instances(self):
            pass
            _ = self.lumps_l4d2
            if hasattr(self, '_m_lumps_l4d2'):
                pass
                for i in range(len(self._m_lumps_l4d2)):
                    pass
                    self._m_lumps_l4d2[i]._fetch_instances()


            _ = self.lumps_standard
            if hasattr(self, '_m_lumps_standard'):
                pass
                for i in range(len(self._m_lumps_standard)):
                    pass
                    self._m_lumps_standard[i]._fetch_instances()



        class LumpL4d2(KaitaiStruct):
            def __init__(self, _io, _parent=None, _root=None, _is_le=None):
                super(VbspHeader.Body.LumpL4d2, self).__init__(_io)
                self._parent = _parent
                self._root = _root
                self._is_le = _is_le
                self._read()

            def _read(self):
                if not hasattr(self, '_is_le'):
                    raise kaitaistruct.UndecidedEndiannessError("/types/body/types/lump_l4d2")
                elif self._is_le == True:
                    self._read_le()
                elif self._is_le == False:
                    self._read_be()

            def _read_le(self):
                self.version = self._io.read_s4le()
                self.offset = self._io.read_s4le()
                self.length = self._io.read_s4le()
                self.fourcc = self._io.read_u4le()

            def _read_be(self):
                self.version = self._io.read_s4be()
                self.offset = self._io.read_s4be()
                self.length = self._io.read_s4be()
                self.fourcc = self._io.read_u4be()


            def _fetch_instances(self):
                pass


        class LumpStandard(KaitaiStruct):
            def __init__(self, _io, _parent=None, _root=None, _is_le=None):
                super(VbspHeader.Body.LumpStandard, self).__init__(_io)
                self._parent = _parent
                self._root = _root
                self._is_le = _is_le
                self._read()

            def _read(self):
                if not hasattr(self, '_is_le'):
                    raise kaitaistruct.UndecidedEndiannessError("/types/body/types/lump_standard")
                elif self._is_le == True:
                    self._read_le()
                elif self._is_le == False:
                    self._read_be()

            def _read_le(self):
                self.offset = self._io.read_s4le()
                self.length = self._io.read_s4le()
                self.version = self._io.read_s4le()
                self.fourcc = self._io.read_u4le()

            def _read_be(self):
                self.offset = self._io.read_s4be()
                self.length = self._io.read_s4be()
                self.version = self._io.read_s4be()
                self.fourcc = self._io.read_u4be()


            def _fetch_instances(self):
                pass


        @property
        def lumps_l4d2(self):
            if hasattr(self, '_m_lumps_l4d2'):
                return self._m_lumps_l4d2

            _pos = self._io.pos()
            self._io.seek(8)
            if self._is_le:
                self._m_lumps_l4d2 = []
                for i in range(64):
                    self._m_lumps_l4d2.append(VbspHeader.Body.LumpL4d2(self._io, self, self._root, self._is_le))

            else:
                self._m_lumps_l4d2 = []
                for i in range(64):
                    self._m_lumps_l4d2.append(VbspHeader.Body.LumpL4d2(self._io, self, self._root, self._is_le))

            self._io.seek(_pos)
            return getattr(self, '_m_lumps_l4d2', None)

        @property
        def lumps_standard(self):
            if hasattr(self, '_m_lumps_standard'):
                return self._m_lumps_standard

            _pos = self._io.pos()
            self._io.seek(8)
            if self._is_le:
                self._m_lumps_standard = []
                for i in range(64):
                    self._m_lumps_standard.append(VbspHeader.Body.LumpStandard(self._io, self, self._root, self._is_le))

            else:
                self._m_lumps_standard = []
                for i in range(64):
                    self._m_lumps_standard.append(VbspHeader.Body.LumpStandard(self._io, self, self._root, self._is_le))

            self._io.seek(_pos)
            return getattr(self, '_m_lumps_standard', None)



