"""Run bspedit command lines in this process, one after another, in the current folder, and
write what each did (exit code, stdout, stderr) as JSON: the portable test runs the same list
here in the normal mode and in the portable mode (see sitecustomize.py) and compares.

    python run_commands.py COMMANDS.json RESULTS.json

COMMANDS.json: a list of {"copy": [[SRC, DST], ...], "argv": [...]}; each copy is made just
before its command runs (an in-place edit gets a map of its own).
"""
from __future__ import annotations

import json
import shutil
import sys

from bspedit.cli import invoke


def main(commands_path: str, results_path: str) -> None:
    with open(commands_path, encoding="utf-8") as handle:
        commands = json.load(handle)
    results = []
    for command in commands:
        for source, target in command.get("copy", []):
            shutil.copyfile(source, target)
        report = invoke(command["argv"], capture=True)
        results.append({"argv": command["argv"], "code": report.code,
                        "stdout": report.stdout, "stderr": report.stderr})
    with open(results_path, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
