"""srctools' packlist, the pack tests' oracle: what it resolves for a map over some folders and
VPKs (`pack_from_bsp` + `pack_from_ents` + `eval_dependencies`, as CompilePal-style packers
run it), each file it names with where it found it."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bspedit.features.pack.model import asset_path


def packlist(roots: Iterable[Path], bsp_path: Path, *, vpks: Iterable[Path] = (),
             manifests: bool = False) -> dict[str, str]:
    """Each file packlist names for the map at `bsp_path` over the loose folders `roots`, then
    the VPKs `vpks` -> "pak" (in the map's pakfile), "content" (a loose file), "vpk" or
    "missing". `manifests`: its soundscript, soundscape and particle manifests loaded first."""
    from srctools.bsp import BSP
    from srctools.filesys import FileSystemChain, RawFileSystem, VPKFileSystem
    from srctools.packlist import PackList

    systems = [("content", RawFileSystem(str(r))) for r in roots]
    systems += [("vpk", VPKFileSystem(str(v))) for v in vpks]
    packer = PackList(FileSystemChain(*(system for _, system in systems)))
    if manifests:
        packer.load_soundscript_manifest()
        packer.load_soundscape_manifest()
        packer.load_particle_manifest()
    bsp = BSP(str(bsp_path))
    packer.pack_from_bsp(bsp)
    packer.pack_from_ents(bsp.ents, bsp_path.stem)
    packer.eval_dependencies()
    pak = {asset_path(n) for n in bsp.pakfile.namelist()}
    out = {}
    for file in packer:
        path = asset_path(file.filename)
        out[path] = "pak" if path in pak else next(
            (kind for kind, system in systems if _has(system, path)), "missing")
    return out


def _has(system: object, path: str) -> bool:
    try:
        system[path]  # type: ignore[index]
    except FileNotFoundError:
        return False
    return True
