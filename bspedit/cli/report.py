"""One verb run as data: the JSON envelope every verb prints with `--json`, and what a batch
worker sends back for each map.

The envelope (README, "JSON output"): ``{"map", "verb", "result", "warnings", "error", "exit"}``.
`result` is the verb's facts (what it found or did; null when it failed with exit 2 or more),
`warnings` the lines printed to stderr as warnings, `error` the one-line message of a failure
(null on success), `exit` the exit code.
"""
from __future__ import annotations

import sys

from .. import TYPE_CHECKING
from ..values import Value

if TYPE_CHECKING:
    from typing import Any


class Report(Value):
    """What one verb did to one map."""

    __slots__ = ("verb", "map", "result", "warnings", "error", "code", "json", "data_on_stdout",
                 "stdout", "stderr")
    __hash__ = None     # type: ignore[assignment]  # changed in place

    def __init__(self, verb: str, map: str | None = None, result: Any = None,  # noqa: A002
                 warnings: list[str] | None = None, error: str | None = None, code: int = 0,
                 json: bool = False, data_on_stdout: bool = False, stdout: str = "",
                 stderr: str = "") -> None:
        self.verb, self.map, self.result = verb, map, result
        self.warnings = [] if warnings is None else warnings
        self.error, self.code = error, code
        self.json = json                        # --json: the envelope is printed, not lines
        self.data_on_stdout = data_on_stdout    # `-o -` and the like: human lines go to stderr
        self.stdout = stdout    # captured output (batch workers), printed by the parent in order
        self.stderr = stderr

    def say(self, line: str = "") -> None:
        """A line of human output (not printed under --json; on stderr when standard output
        carries the command's data)."""
        if not self.json:
            print(line, file=sys.stderr if self.data_on_stdout else sys.stdout)

    def warn(self, message: str) -> None:
        """A warning: kept for the envelope and printed to stderr as `bspedit: warning: ...`."""
        self.warnings.append(message)
        print(f"bspedit: warning: {message}", file=sys.stderr)

    def envelope(self) -> dict[str, Any]:
        return {"map": self.map, "verb": self.verb, "result": self.result,
                "warnings": self.warnings, "error": self.error, "exit": self.code}
