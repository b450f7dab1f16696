"""VScripts a map runs: the script files its outputs and code keys name, what a script file
names in turn, and the script the game runs at every map start.

- Outputs (any output, its input name in any case; `lumps.connections` reads both separators,
  commas and ESC):
  - `RunScriptFile`, and Left 4 Dead 2 `info_director`'s `BeginScript` (a director script)
    and `ScriptedPanicEvent`: the parameter is a script name;
  - `RunScriptCode`, `RunScriptCodeQuotable` (Mapbase; `''` stands for `"`): the parameter is
    code, whose literal `IncludeScript`/`DoIncludeScript` calls name scripts (a string in
    quotes or backquotes: Hammer cannot store `"` in a value, and TF2 and HammerAddons turn
    backquotes into quotes);
  - `Command` (point_servercommand, point_clientcommand, point_broadcastclientcommand): each
    `;`-separated console command: `script_execute NAME` runs a script, `script CODE` runs
    code, `ent_fire TARGET RunScriptFile NAME` as the output would.
- Keys: `vscripts` (every entity of the VScript games) and the other script-list keys are the
  key table's (`entity_assets.VSCRIPT`, `refs.key_references`); `vscript_init_code`..
  `vscript_init_code5` hold code (as `RunScriptCode`). `thinkfunction` and `CallScriptFunction`
  name a function of the entity's scripts, not a file: nothing.
- `scripts/vscripts/mapspawn.nut`: every VScript game (Left 4 Dead 2, Portal 2, CS:GO, TF2,
  Alien Swarm, Mapbase) runs it at each map start (`VScriptServerInit`), optional. Scripts
  started by names built at run time (L4D2's `<map>_<mode>.nut` in scripted mode) cannot be
  followed.

Script names resolve as the engine's `VScriptRunScript` does (`script_path`): under
`scripts/vscripts/` (a name that already starts there is not doubled), with `.nut` added to a
name without an extension. HammerAddons' postcompiler (srctools' `bsp_transform`) packs the
scripts it writes as `scripts/vscripts/inject/INJECT_<hash>.nut` and runs them through the
`vscripts` keys it sets (its entities' code, `comp_precache_sound`'s `info_target`, vactubes)
and the `RunScriptFile` outputs it turns backquoted `RunScriptCode` outputs into: both are
followed here.

A script file (`vscript_deps`) leads to its literal `IncludeScript`/`DoIncludeScript` scripts,
`PrecacheScriptSound`/`PrecacheSoundScript` soundscripts and `PrecacheModel` models.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ...lumps.connections import split_output
from .materials import decode_text
from .model import SOUNDSCRIPT, Reference, asset_path, is_file
from .models import model_path

if TYPE_CHECKING:
    from ...bsp import Bsp

Read = Callable[[str], "bytes | None"]

MAPSPAWN = "scripts/vscripts/mapspawn.nut"
# Literal calls: the function, then its first argument in quotes or backquotes.
_CALL = re.compile(r'\b(IncludeScript|DoIncludeScript|PrecacheScriptSound|PrecacheSoundScript|'
                   r'PrecacheModel)\s*\(\s*(["`])([^"`\r\n]+)\2')
_INCLUDES = ("IncludeScript", "DoIncludeScript")
_FILE_INPUTS = {"runscriptfile": "RunScriptFile", "beginscript": "BeginScript",
                "scriptedpanicevent": "ScriptedPanicEvent"}
_CODE_INPUTS = {"runscriptcode": "RunScriptCode", "runscriptcodequotable": "RunScriptCodeQuotable"}
_CODE_KEYS = frozenset({"vscript_init_code"} | {f"vscript_init_code{n}" for n in range(2, 6)})
_RUN_COMMANDS = frozenset({"script_execute", "script_execute_client"})
_CODE_COMMANDS = frozenset({"script", "script_client"})


def script_path(name: str) -> str:
    """The file a script name runs: `scripts/vscripts/<name>`, `.nut` added when the name has
    no extension (`inject/INJECT_1a.nut`, `Inject/INJECT_1a` and
    `scripts/vscripts/inject/inject_1a.nut` are one file)."""
    path = asset_path(name.strip())
    if not path.startswith("scripts/vscripts/"):
        path = "scripts/vscripts/" + path
    if "." not in path.rsplit("/", 1)[-1]:
        path += ".nut"
    return path


def script_calls(code: str) -> list[tuple[str, str]]:
    """`(function, target)` for each literal call in VScript code: the script or model path
    it names, or the `soundscript:` name."""
    out = []
    for func, _quote, arg in _CALL.findall(code):
        if func in _INCLUDES:
            out.append((func, script_path(arg)))
        elif func == "PrecacheModel":
            out.append((func, model_path(arg)))
        else:
            out.append((func, SOUNDSCRIPT + arg.strip().casefold()))
    return out


def code_references(code: str, reason: tuple[str, ...]) -> list[Reference]:
    """What VScript code names with literal calls: included scripts, soundscripts, models."""
    return [Reference(target, (*reason, func)) for func, target in script_calls(code)]


def command_references(command: str, reason: tuple[str, ...]) -> list[Reference]:
    """The scripts a `Command` input's console commands run (`;`-separated):
    `script_execute NAME`, `script CODE`, `ent_fire TARGET RunScriptFile NAME`."""
    out: list[Reference] = []
    for line in command.split(";"):
        words = line.split()
        if len(words) < 2:
            continue
        verb = words[0].lower()
        if verb in _RUN_COMMANDS:
            out.append(Reference(script_path(words[1]), (*reason, verb)))
        elif verb in _CODE_COMMANDS:
            out += code_references(line.split(None, 1)[1], (*reason, verb))
        elif verb == "ent_fire" and len(words) >= 4:
            out += input_references(words[2], " ".join(words[3:]), (*reason, "ent_fire"))
    return out


def input_references(name: str, parameter: str, reason: tuple[str, ...]) -> list[Reference]:
    """The scripts an input `name` (any case) with `parameter` runs."""
    folded = name.lower()
    if folded in _FILE_INPUTS:
        return [Reference(script_path(parameter), (*reason, _FILE_INPUTS[folded]))] \
            if parameter.strip() else []
    if folded in _CODE_INPUTS:
        if folded == "runscriptcodequotable":
            parameter = parameter.replace("''", '"')
        return code_references(parameter, (*reason, _CODE_INPUTS[folded]))
    if folded == "command":
        return command_references(parameter, (*reason, "Command"))
    return []


def entity_script_references(bsp: Bsp) -> list[Reference]:
    """The scripts the map's outputs and code keys run (see the module's doc), required, in
    file order. Reasons: `entity 5 func_button 'OnPressed' RunScriptFile`, `entity 9
    logic_auto 'OnMapSpawn' Command script_execute`, `entity 2 info_target
    'vscript_init_code' IncludeScript`."""
    out: list[Reference] = []
    for index, entity in enumerate(bsp.entities(lenient=True)):
        classname = (entity.get("classname") or "").strip()
        for key, value in entity.pairs():
            where = (f"entity {index} {classname} {key!r}",)
            if key.lower() in _CODE_KEYS:
                out += code_references(value, where)
            elif (parsed := split_output(value)) is not None:
                _target, input_name, parameter, *_ = parsed[1]
                out += input_references(input_name, parameter, where)
    return out


def mapspawn_references() -> list[Reference]:
    """`scripts/vscripts/mapspawn.nut`, which VScript games run at every map start
    (optional)."""
    return [Reference(MAPSPAWN, ("run at every map start (VScript games)",), optional=True)]


def vscript_deps(ref: Reference, read: Read) -> list[Reference]:
    """What the script file `ref` names with literal calls (`script_calls`)."""
    data = read(ref.path)
    if data is None:
        return []
    out = []
    for func, target in script_calls(decode_text(data)):
        step = f"{ref.path} {func}"
        out.append(ref.via(step, target) if is_file(target) else ref.named(target, step))
    return out
