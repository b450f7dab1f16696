"""The maps the page has opened and their pending edits.

A map is its file, as it was when opened (its stat and header bytes: a change on disk is
seen), and a list of edits with an undo and a redo stack. Its state is the file opened fresh
with the edits applied in order: kept open between requests (a new edit applies to it), made
again by undo or when the file changed. Opening reads the header only; each view parses what
it asks for (entities on the first request for them). Nothing is written before `save`.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..bsp import Bsp
from ..errors import BspError
from .edits import Context, Edit, make
from .web import UiError, safe_name

if TYPE_CHECKING:
    from ..container.saving import SaveResult
    from ..lumps.entities import EntityLump

_HEAD = 4096        # header bytes compared to see a change on disk (with the file's stat)


def _fingerprint(path: str) -> tuple[int, int, int, str]:
    """What tells a file changed on disk: size, modification time, inode, and a digest of its
    first bytes (the lump directory of every family)."""
    st = os.stat(path)
    with open(path, "rb") as file:
        head = hashlib.sha256(file.read(_HEAD)).hexdigest()
    return st.st_size, st.st_mtime_ns, st.st_ino, head


class OpenMap:
    """One opened map: its file, pending edits and current state. Use under `lock`."""

    def __init__(self, map_id: str, path: str, name: str, *, upload: bool = False) -> None:
        self.id, self.path, self.name, self.upload = map_id, path, name, upload
        self.lock = threading.RLock()
        self.edits: list[Edit] = []
        self.undone: list[Edit] = []
        self.revision = 0           # counts every change of the edits (the page's freshness)
        self.saved_revision = 0     # the revision last saved (the page warns before leaving)
        self.lenient: bool | None = None   # entity text read leniently (found on first read)
        self.fingerprint = _fingerprint(path)   # the file as opened (or last saved in place)
        self._state: Bsp | None = Bsp.open(path)       # the file with `_applied` edits
        self._applied = 0
        # the file the state was opened from (None: it was gone)
        self._built: tuple[int, int, int, str] | None = self.fingerprint
        family = self._state.family
        self.kind = {"family": family.key, "title": family.title,
                     "version": self._state.header.version}

    # the state ------------------------------------------------------------------------------
    def changed_on_disk(self) -> bool:
        """Whether the file changed (or went) since it was opened or saved in place."""
        return self._current() != self.fingerprint

    def _current(self) -> tuple[int, int, int, str] | None:
        try:
            return _fingerprint(self.path)
        except OSError:
            return None

    def state(self) -> Bsp:
        """The map with every pending edit applied: kept between requests, the edits not yet
        applied to it applied; replayed from a fresh open after an undo, a failed edit, or a
        change of the file on disk."""
        current = self._current()
        if self._state is not None and current == self._built:
            for edit in self.edits[self._applied:]:
                self._apply(edit)
            return self._state
        self._drop_state()
        state = Bsp.open(self.path)
        self._state, self._applied, self._built = state, 0, current
        for edit in self.edits:
            self._apply(edit)
        return state

    def _apply(self, edit: Edit) -> None:
        assert self._state is not None
        try:
            edit.apply(self._state)
        except BaseException:
            self._drop_state()
            raise
        self._applied += 1

    def _drop_state(self) -> None:
        if self._state is not None:
            self._state.close()
        self._state, self._applied = None, 0

    def context(self) -> Context:
        if self.lenient is None:
            state = self.state()
            try:
                state.entities()
                self.lenient = False
            except BspError:
                state.entities(lenient=True)
                self.lenient = True
        return Context(self.lenient)

    def entities(self) -> EntityLump:
        context = self.context()
        return self.state().entities(lenient=context.lenient)

    # edits ----------------------------------------------------------------------------------
    def add(self, params: dict[str, Any]) -> Edit:
        """Check and apply one edit; it becomes the last pending one (the redo stack is
        cleared). A refused edit changes nothing."""
        context = self.context()
        state = self.state()
        edit = make(state, params, context)
        self.edits.append(edit)
        try:
            self._apply(edit)           # onto the state just made: no second look at the file
        except BaseException:
            self.edits.pop()
            raise
        self.undone.clear()
        self.revision += 1
        return edit

    def undo(self) -> None:
        if not self.edits:
            raise UiError(409, "nothing_to_undo", "no edit to undo")
        self.undone.append(self.edits.pop())
        self._drop_state()      # replayed on the next request
        self.revision += 1

    def redo(self) -> None:
        if not self.undone:
            raise UiError(409, "nothing_to_redo", "no edit to redo")
        self.edits.append(self.undone.pop())
        try:
            self.state()
        except BaseException:
            self.undone.append(self.edits.pop())
            raise
        self.revision += 1

    def edits_json(self) -> dict[str, Any]:
        return {"edits": [e.to_json() for e in self.edits], "revision": self.revision,
                "undo": len(self.edits), "redo": len(self.undone)}

    # saving ---------------------------------------------------------------------------------
    def save(self, output: str | None, *, keep_checksum: bool = False,
             others: Iterable[str] = ()) -> SaveResult:
        """Write the state: into the map itself (`output` None; refused, 409, when the file
        changed on disk since it was opened, or for an uploaded copy) or to `output` (through
        the output guard: never one of the opened maps). The edits stay pending on failure;
        saved in place, they are the file's now."""
        if output is None:
            if self.upload:
                raise UiError(400, "no_file", "an uploaded copy has no file of its own: name "
                                              "an output path")
            if self.changed_on_disk():
                raise UiError(409, "changed_on_disk", f"{self.path} changed on disk since it "
                              "was opened: refused, to keep that change; your edits are kept "
                              "(save them to another file)")
            result = self.state().save(None, keep_checksum=keep_checksum)
            self._drop_state()
            self.edits.clear()
            self.undone.clear()
            self.fingerprint = _fingerprint(self.path)
            self.revision += 1
        else:
            from ..container.outputs import guard

            target = os.path.abspath(os.path.expanduser(output))
            guard(target, [self.path, *others])
            result = self.state().save(target, keep_checksum=keep_checksum)
        self.saved_revision = self.revision
        return result

    def diff(self, folder: str) -> dict[str, Any]:
        """What `bspedit diff` says of the file on disk and the state saved (to a scratch file
        in `folder`, removed after): `result` as its JSON, `lines` as it prints them."""
        from ..features.diff import diff_lines, diff_maps

        scratch = os.path.join(folder, f"{self.id}-diff.bsp")
        try:
            self.state().save(scratch)
            with Bsp.open(self.path) as before, Bsp.open(scratch) as after:
                result = diff_maps(before, after)
        finally:
            if os.path.exists(scratch):
                os.unlink(scratch)
        return {"result": result, "lines": diff_lines(result)}

    def summary(self) -> dict[str, Any]:
        """What the page shows of the map (nothing parsed: the header read when opened; a file
        gone since is `changed_on_disk`, its size the one it had)."""
        try:
            size = os.path.getsize(self.path)
        except OSError:
            size = self.fingerprint[0]
        return {"id": self.id, "path": None if self.upload else self.path, "name": self.name,
                **self.kind, "size": size,
                "pending": len(self.edits), "revision": self.revision,
                "saved_revision": self.saved_revision, "upload": self.upload,
                "changed_on_disk": self.changed_on_disk()}

    def close(self) -> None:
        self._drop_state()


class Session:
    """The opened maps, by id (m1, m2, ...), and a private folder for uploaded copies and
    scratch files (removed on close)."""

    def __init__(self) -> None:
        self.maps: dict[str, OpenMap] = {}
        self.lock = threading.Lock()
        self._folder: str | None = None
        self._count = 0

    def folder(self) -> str:
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="bspedit-ui-")
        return self._folder

    def open_path(self, path: str) -> OpenMap:
        """Open the map at `path` (BspError, one line, if it is not one); a map already open
        is given again."""
        full = os.path.abspath(os.path.expanduser(path))
        if os.path.isdir(full):
            raise BspError("is a folder, not a map: give a .bsp file", path=path)
        if not os.path.exists(full):
            raise BspError("no such file", path=path)
        from ..container.outputs import same_file

        with self.lock:
            for opened in self.maps.values():
                if not opened.upload and same_file(opened.path, full):
                    return opened
            try:
                return self._add(full, os.path.basename(full), upload=False)
            except BspError as exc:
                if exc.path == full:        # named as the user typed it
                    exc.path = path
                raise

    def open_upload(self, name: str, data: bytes) -> OpenMap:
        """Open an uploaded copy of a map (kept in the session's folder under a safe name)."""
        from ..container.outputs import write_file

        base = os.path.basename(name.replace("\\", "/")) or "upload.bsp"    # as shown
        safe = safe_name(base, "upload.bsp")
        with self.lock:
            self._count += 1
            folder = os.path.join(self.folder(), f"upload{self._count}")
            os.mkdir(folder)
            path = os.path.join(folder, safe)
            write_file(path, data)
            try:
                return self._add(path, base, upload=True)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise

    def _add(self, path: str, name: str, *, upload: bool) -> OpenMap:
        self._count += 1
        map_id = f"m{self._count}"
        opened = OpenMap(map_id, path, self._unique(name, path), upload=upload)
        self.maps[map_id] = opened
        return opened

    def _unique(self, name: str, path: str) -> str:
        """The name shown for a map: its file name, with its folder's when another open map
        has the same."""
        if all(m.name != name for m in self.maps.values()):
            return name
        return os.path.join(os.path.basename(os.path.dirname(path)), name)

    def get(self, map_id: str) -> OpenMap:
        opened = self.maps.get(map_id)
        if opened is None:
            raise UiError(404, "no_map", f"no open map {map_id!r}")
        return opened

    def close(self) -> None:
        for opened in self.maps.values():
            opened.close()
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
