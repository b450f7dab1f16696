"""The one exception bspedit raises for bad input."""
from __future__ import annotations


class BspError(Exception):
    """Bad input: a file that is not a valid map, or a request that cannot be met.

    The message is one line naming the file, the lump and the offset where known.
    The CLI prints it and exits with status 2.
    """

    def __init__(self, message: str, *, path: str | None = None, lump: str | None = None,
                 offset: int | None = None, in_file: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.lump = lump
        self.offset = offset
        self.in_file = in_file      # `offset` counts from the start of the file `path` names

    def __str__(self) -> str:
        parts = [p for p in (self.path, self.lump) if p]
        if self.offset is not None:
            where = "file offset" if self.in_file else "lump offset" if self.lump else "offset"
            parts.append(f"{where} {self.offset}")
        parts.append(self.message)
        return ": ".join(parts)

    def at(self, path: str) -> "BspError":
        """Name the file if no file was named yet; return self for `raise err.at(path)`."""
        if self.path is None:
            self.path = path
        return self


class CheckFailed(BspError):
    """A requested check refused the operation (for example `--keep-checksum`): exit status 1."""
