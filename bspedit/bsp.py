"""The open map with its lump views: entities, pakfile, game lump, static props, records; every
view's edits are stored into its lump when the map is planned or saved (the file, its edits and
the save are `bspedit.container.mapfile`'s)."""
from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .container.layout import Layout
from .container.mapfile import MapFile, SaveReport, _Replacement
from .errors import BspError
from .format.header import Header, lump_label

if TYPE_CHECKING:
    import numpy

    from .lumps.entities import EntityLump
    from .lumps.gamelump import GameLump
    from .lumps.pakfile import Pakfile
    from .container.saving import SaveResult
    from .lumps.records import RecordInfo, RecordStore
    from .lumps.staticprops import StaticProps

__all__ = ["Bsp", "SaveReport"]


class Bsp(MapFile):
    """A map file opened for reading and editing. Use as a context manager or call `close()`.

    Its views (`entities()`, `pakfile`, `game_lump`, `static_props`) are parsed on first use
    and edited in place; `save()` stores every view's edits. A view read owns its lump: edit
    that lump through the view, not with `replace_lump`. `records(lump)` reads fixed-size
    lumps as numpy arrays; a writable one owns its lump the same way. The file itself (lumps,
    `read_lump`, `replace_lump`, planning) is `MapFile`'s.
    """

    def __init__(self, path: str, fd: int, header: Header, layout: Layout) -> None:
        super().__init__(path, fd, header, layout)
        self._entities: EntityLump | None = None
        self._stored_text: bytes | None = None     # entity text last put into the lump
        self._pakfile: Pakfile | None = None
        self._pak_base: _Replacement | None = None  # the pakfile lump's new bytes before the view
        self._pak_state: tuple[bool, int] | None = None     # (in place, edits) last stored
        self._game_lump: GameLump | None = None
        self._game_edits = 0                       # the game lump's edits last stored
        self._static_props: StaticProps | None = None
        self._stored_sprp = b""                    # static props last put into the game lump
        self._records: RecordStore | None = None   # record arrays (bspedit.lumps.records)

    def entities(self, *, lenient: bool = False) -> EntityLump:
        """The entity lump as an editable, lossless model (LZMA lumps are decompressed),
        parsed on the first call. `lenient` reads malformed text as the engines do (a stray
        `}`, a key without a value) instead of raising BspError; it matters on the first call.

        A method, not a property like the other views, because of `lenient`. Edits are stored
        when the map is planned or saved; an unedited lump keeps its stored bytes.
        """
        if self._entities is None:
            from .lumps.entities import EntityLump
            try:
                self._entities = EntityLump.parse(self.content(self.family.entities),
                                                  lenient=lenient)
            except BspError as exc:
                exc.lump = lump_label(self.lumps[self.family.entities])
                raise exc.at(self.path)
        return self._entities

    def replace_entities(self, text: bytes, *, lenient: bool = False) -> None:
        """Replace the whole entity text (ripent import). Malformed text raises BspError
        (no file named: the caller knows where the text came from)."""
        from .lumps.entities import EntityLump

        self._entities = EntityLump.parse(text, lenient=lenient)
        self._store_entity_text(text)

    @property
    def pakfile(self) -> Pakfile:
        """The Source pakfile (a zip of the map's own files), editable: `add`, `remove`,
        `repack`; `save` stores the edit (only new bytes appended in place, a clean zip
        otherwise). BspError for families without one."""
        if self._pakfile is None:
            from .lumps.pakfile import Pakfile, pak_index

            self._pak_base = self._replaced.get(pak_index(self))
            self._pakfile = Pakfile.of(self)
        return self._pakfile

    @property
    def game_lump(self) -> GameLump:
        """The Source game lump's members, editable with `replace_member` and `remove`;
        `save` stores them (relocated wherever the lump lands). BspError for other families."""
        if self._game_lump is None:
            from .lumps.gamelump import read_game_lump

            self._game_lump = read_game_lump(self)
            self._game_edits = self._game_lump.edits
        return self._game_lump

    @property
    def static_props(self) -> StaticProps:
        """The static props (game lump member `sprp`), editable with `set`, `set_model` and
        `remove`; `save` stores them. BspError for maps without them."""
        if self._static_props is None:
            from .lumps.staticprops import parse_static_props

            self._static_props = parse_static_props(self, self.game_lump)
            self._stored_sprp = self._static_props.to_bytes()
        return self._static_props

    def close(self) -> None:
        """Close the file (edits not saved are lost). Record arrays read stay usable."""
        self._release_mappings()
        super().close()

    def _release_mappings(self) -> None:
        if self._records is not None:
            self._records.release()

    def _record_store(self) -> RecordStore:
        if self._records is None:
            from .lumps.records import RecordStore

            self._records = RecordStore(self)
        return self._records

    def records(self, lump: int | str, *, writable: bool = False) -> numpy.ndarray[Any, Any]:
        """The lump's fixed-size records as a numpy structured array (dtype from the Kaitai
        specs for this family, map version and lump version, in the map's byte order:
        big-endian on console maps; LZMA lumps decompressed). Read-only: a zero-copy view
        of the file as it was opened (read again after an in-place save). `writable`: the
        map's own copy, the same array on every call, stored by `save` when its bytes
        changed. Bytes after the last whole record are kept (`record_tail`). BspError for
        lumps without a fixed-size record type. See `bspedit.lumps.records`."""
        return self._record_store().records(self.lump_index(lump), writable)

    def replace_records(self, lump: int | str, array: numpy.ndarray[Any, Any]) -> None:
        """Give the lump a copy of `array` (1-D, the lump's record dtype in the map's byte
        order, any length) as its records; `records(lump, writable=True)` then gives that
        copy. The tail is kept."""
        self._record_store().replace(self.lump_index(lump), array)

    def record_tail(self, lump: int | str) -> bytes:
        """The lump's bytes after its last whole record (b"" for a well-formed lump)."""
        return self._record_store().tail(self.lump_index(lump))

    def describe_records(self, lump: int | str) -> RecordInfo:
        """The lump's record type, dtype, record count and tail length."""
        return self._record_store().describe(self.lump_index(lump))

    def checksums(self) -> dict[str, int]:
        """The engine checksums of the file as stored (not of unsaved edits): name -> unsigned
        32-bit value (crc32 for Source and GoldSrc, map_checksum for Quake 1, block_checksum
        for Quake 2/3, ...). Reads the whole file."""
        from .container.mapsums import map_checksums

        return map_checksums(self)

    def _store_views(self) -> None:
        """Put edited views back into their lumps, as the layout last planned needs them."""
        if self._entities is not None and self._entities.dirty:
            self._store_entity_text(self._entities.to_bytes())
        if self._pakfile is not None:
            self._store_pakfile(self._pakfile)
        if self._static_props is not None:
            data = self._static_props.to_bytes()
            if data != self._stored_sprp:
                from .lumps.staticprops import MEMBER

                self.game_lump.replace_member(MEMBER, data)
                self._stored_sprp = data
        if self._game_lump is not None and self._game_lump.edits != self._game_edits:
            from .lumps.gamelump import store_game_lump

            store_game_lump(self, self._game_lump)
            self._game_edits = self._game_lump.edits
        if self._records is not None:
            self._records.store()

    def _store_pakfile(self, pak: Pakfile) -> None:
        """Store the pakfile's edit when it or the planned layout changed: appended to the
        file for an in-place save, as a clean zip otherwise; no edit gives back the lump."""
        state = (self._mode == "in-place", pak.edits)
        if state == self._pak_state:
            return
        self._pak_state = state
        if pak.dirty:
            pak.apply(self, in_place=state[0])
            return
        from .lumps.pakfile import pak_index

        index = pak_index(self)
        if self._pak_base is None:
            self._replaced.pop(index, None)
        else:
            self._replaced[index] = self._pak_base

    def _store_entity_text(self, text: bytes) -> None:
        """Store entity text, compressed again if the lump was, keeping unchanged bytes as stored.
        Text already stored is not encoded again (LZMA is slow, and this runs on every query)."""
        if text == self._stored_text:
            return
        self._stored_text = text
        self.replace_content(self.family.entities, text)

    def save(self, target: str | os.PathLike[str] | None = None, layout: str = "stable", *,
             keep_checksum: bool = False, aas: Iterable[str] = (),
             dry_run: bool = False) -> SaveResult:
        """Store every view's edits and save: into this map when `target` is None (`layout`
        stable: crash-safe in place, only changed bytes written; compact: a compacted copy
        renamed over it), else to `target` (atomic; never the map itself). Returns what the
        save did, with the engine checksums before and after (`checksum_changed`: whether
        clients holding the original are refused). See `bspedit.container.saving.save` for
        `keep_checksum`, `aas` and `dry_run`. Views read before an in-place save are stale
        after it: read them again from the map."""
        from .container.saving import save

        return save(self, target, layout=layout, keep_checksum=keep_checksum, aas=aas,
                    dry_run=dry_run)
