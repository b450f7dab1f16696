"""One verb run as data: the JSON envelope every verb prints with `--json`, and what a batch
worker sends back for each map.

The envelope (README, "JSON output"): ``{"map", "verb", "result", "warnings", "error", "exit"}``.
`result` is the verb's facts (what it found or did; null when it failed with exit 2 or more),
`warnings` the lines printed to stderr as warnings, `error` the one-line message of a failure
(null on success), `exit` the exit code.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Report:
    """What one verb did to one map."""

    verb: str
    map: str | None = None
    result: Any = None
    warnings: list[str] = field(default_factory=list)
    error: str | None = None
    code: int = 0
    json: bool = False          # --json: human lines are not printed, the envelope is
    data_on_stdout: bool = False    # `-o -` and the like: human lines go to stderr
    stdout: str = ""            # captured output (batch workers), printed by the parent in order
    stderr: str = ""

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
