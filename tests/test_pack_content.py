"""The pack verbs without a gameinfo, files the game's file system cannot judge, and the game
paths a user types (issues 40 and 42):

- `--content DIR` alone (several too): a level-design repository's `assets/` folders, assembled
  here from ../shared/content at test time, minus the gameinfo. srctools' packlist on those
  folders is the oracle: every file it resolves there, deps resolves there; autopack packs every
  file found there; nothing is `missing`, what is found nowhere is `unknown` (no base game);
- `unknown` against `missing`: a synthetic game whose search paths are all here (missing: exit
  1) and the same game without its base folder (unknown: exit 0), then the real mods, whose
  base games (HL2, EP2, Portal) are not on this machine;
- each typed-path mistake: exit 2, one line, the map untouched, nothing written."""
from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest
from packlist_oracle import packlist
from verbs import run_json

from bspedit.bsp import Bsp
from bspedit.cli import invoke
from bspedit.features.pack.gamefs import GameFS
from bspedit.features.pack.model import asset_path

pytest.importorskip("srctools")

DATA = Path(__file__).parent / "data"
CONTENT = Path(__file__).resolve().parents[1].parent / "shared" / "content"
needs_content = pytest.mark.skipif(not (CONTENT / "README.md").is_file(),
                                   reason="../shared/content not present")
MAPS = sorted(f"{p.parent.parent.name}/{p.name}" for p in CONTENT.glob("*/maps/*.bsp")) \
    if CONTENT.is_dir() else []
FAST = {"msrc/dissenter.bsp", "portalcollab/pcollab_26_iambread_test.bsp"}
# How each mod's content is split into level-design roots (no gameinfo, no VPK, no maps/)
ROOTS = {"msrc": [("materials", "sound")],
         "portalcollab": [("materials",), ("models", "particles", "scripts", "resource")]}


def run(*argv: object) -> tuple[int, dict]:
    code, _, (report,) = run_json([*map(str, argv), "--json"])
    return code, report


@pytest.fixture(scope="module")
def assets(tmp_path_factory):
    """mod -> its content roots, copied from ../shared/content once per module."""
    made: dict[str, list[Path]] = {}

    def roots(mod: str) -> list[Path]:
        if mod not in made:
            top = tmp_path_factory.mktemp(f"{mod}_assets")
            made[mod] = []
            for n, folders in enumerate(ROOTS[mod]):
                root = top / f"root{n}"
                for folder in folders:
                    shutil.copytree(CONTENT / mod / folder, root / folder)
                made[mod].append(root)
        return made[mod]
    return roots


def files_of(roots: list[Path]) -> dict[str, Path]:
    """asset path -> the file, the first root that has it winning (the lookup order)."""
    out: dict[str, Path] = {}
    for root in roots:
        for file in sorted(root.rglob("*")):
            if file.is_file():
                out.setdefault(asset_path(str(file.relative_to(root))), file)
    return out


def params():
    return [pytest.param(m, id=m, marks=() if m in FAST else pytest.mark.full) for m in MAPS]


@needs_content
@pytest.mark.parametrize("name", params())
def test_content_folders_alone_deps_autopack_audit(name, assets, tmp_path):
    mod, file = name.split("/")
    roots = assets(mod)
    content = [arg for root in roots for arg in ("--content", root)]
    src = tmp_path / file
    shutil.copyfile(CONTENT / mod / "maps" / file, src)
    before = src.read_bytes()
    theirs = packlist(roots, src)
    on_disk = files_of(roots)

    code, report = run("pak", "deps", src, *content, "--strict")
    result = report["result"]
    assert code == 0                # nothing is missing without a base game: --strict passes
    assert (result["gameinfo"], result["base_game"]) == (None, [])
    assert "no gameinfo" in result["unknown_reason"]
    files = {row["path"]: row for row in result["files"]}
    assert result["counts"]["missing"] == 0 and result["counts"]["unknown"] > 0
    roots_seen = {str(r) for r in roots}
    for path, kind in theirs.items():
        if kind == "content":       # every file packlist resolves in the folders, deps does
            row = files[path]
            assert (row["location"], row["base"]) == ("loose", False), path
            assert row["where"] in roots_seen and on_disk[path].is_relative_to(row["where"])
        elif kind == "pak":
            assert files[path]["location"] == "pak", path
        elif path in files:         # found nowhere: unknown (maybe the base game's)
            assert files[path]["location"] == "unknown", path
    for row in files.values():      # and what deps finds loose is there
        assert row["location"] in ("pak", "loose", "unknown"), row
        if row["location"] == "loose":
            assert row["path"] in on_disk
    with Bsp.open(src) as bsp:      # the map's own patch materials and cubemaps: pak
        packed = [asset_path(e.name) for e in bsp.pakfile.entries if not e.is_dir]
    for entry in packed:
        if entry.startswith("materials/maps/"):
            assert files[entry]["location"] == "pak", entry

    out = tmp_path / "packed.bsp"
    code, report = run("pak", "autopack", src, *content, "-o", out)
    auto = report["result"]
    assert code == 0 and auto["missing_required"] == 0 and auto["save"]["written"]
    assert src.read_bytes() == before
    # everything found in the content folders is the mod's, and packed with its bytes
    loose = {p for p, row in files.items() if row["location"] == "loose"}
    assert {row["path"] for row in auto["packed"]} == loose
    assert {p for p, kind in theirs.items() if kind == "content"} <= loose
    unknown = {p for p, row in files.items() if row["location"] == "unknown"}
    assert {row["path"] for row in auto["unknown"]} == unknown
    with Bsp.open(out) as bsp:
        for path in loose:
            assert bsp.pakfile.read(path) == on_disk[path].read_bytes(), path

    code, report = run("pak", "audit", out, *content)
    audited = report["result"]
    assert code == 0 and audited["unresolved"] == []
    assert {row["path"] for row in audited["in_mod"]} >= loose
    assert not set(audited["unused"]) & loose
    assert {row["path"] for row in audited["unknown"]} == {
        p for p in unknown if not files[p]["optional"]}
    # a second run packs nothing; the text report says what it assumed
    again = invoke(["pak", "autopack", str(out), *map(str, content), "--dry-run"], capture=True)
    assert again.code == 0 and "0 files would pack" in again.stdout
    assert "base game: none assumed" in again.stdout
    assert "not counted missing: no gameinfo" in again.stdout


GAMEINFO = ('"GameInfo"\n{\n\tFileSystem\n\t{\n\t\tSearchPaths\n\t\t{\n'
            '\t\t\tgame |gameinfo_path|.\n\t\t\tgame |all_source_engine_paths|base\n'
            '\t\t}\n\t}\n}\n')


def decal_map(tmp_path: Path, *names: str) -> Path:
    """tests/data/tiny.bsp with an infodecal per name (its `texture` a material)."""
    src = tmp_path / "tiny.bsp"
    shutil.copyfile(DATA / "tiny.bsp", src)
    with Bsp.open(src) as bsp:
        text = bsp.entities(lenient=True).to_bytes().rstrip(b"\0")
    ents = tmp_path / "ents.txt"
    ents.write_bytes(text + b"".join(b'{\n"classname" "infodecal"\n"texture" "%s"\n}\n'
                                     % n.encode() for n in names))
    assert invoke(["ent", "import", str(src), str(ents), "--in-place"], capture=True).code == 0
    return src


def test_missing_when_every_search_path_is_here_unknown_when_one_is_not(tmp_path):
    """A mod over a base folder: a material in neither is missing (deps --strict, autopack and
    ent check fail; audit's unresolved); with the base folder gone, it is unknown (none fail)
    and said once, with the reason."""
    mod, base = tmp_path / "mod", tmp_path / "base"
    for folder, text in ((mod, "mine"), (base, "theirs")):
        (folder / "materials" / "x").mkdir(parents=True)
        (folder / "materials" / "x" / f"{text}.vmt").write_text('"UnlitGeneric" {}\n')
    (mod / "gameinfo.txt").write_text(GAMEINFO)
    src = decal_map(tmp_path, "x/mine", "x/theirs", "x/nowhere")

    def ours(rows: list[dict]) -> list[str]:       # tiny.bsp's own sky faces left out
        return [r["path"] for r in rows if r["path"].startswith("materials/x/")]

    def judged() -> dict[str, object]:
        code, report = run("pak", "deps", src, "--game", mod, "--strict")
        rows = {r["path"]: r["location"] for r in report["result"]["files"]}
        auto_code, auto = run("pak", "autopack", src, "--game", mod, "--dry-run", "--in-place")
        _, audit = run("pak", "audit", src, "--game", mod)
        check = invoke(["ent", "check", str(src), "--game", str(mod), "--json"], capture=True)
        text = invoke(["ent", "check", str(src), "--game", str(mod)], capture=True)
        asset = [(f["severity"], f["value"]) for f in check.result["findings"]
                 if f["kind"] == "asset"]
        return {"deps": (code, rows["materials/x/mine.vmt"], rows["materials/x/theirs.vmt"],
                         rows["materials/x/nowhere.vmt"]),
                "autopack": (auto_code, ours(auto["result"]["packed"]),
                             ours(auto["result"]["missing"]), ours(auto["result"]["unknown"])),
                "audit": (ours(audit["result"]["unresolved"]), ours(audit["result"]["unknown"])),
                "check": (check.code, [a for a in asset if a[1].startswith("x/")],
                          check.result["counts"]["unknown"] == len(asset)),
                "said": [line for line in text.stdout.splitlines()
                         if "base game's search paths" in line]}

    nowhere = "materials/x/nowhere.vmt"
    assert judged() == {
        "deps": (1, "loose", "loose", "missing"),
        "autopack": (1, ["materials/x/mine.vmt"], [nowhere], []),
        "audit": ([nowhere], []),
        "check": (1, [("problem", "x/nowhere")], False), "said": []}
    shutil.rmtree(base)
    found = judged()
    assert found == {
        "deps": (0, "loose", "unknown", "unknown"),
        "autopack": (0, ["materials/x/mine.vmt"], [], ["materials/x/theirs.vmt", nowhere]),
        "audit": ([], ["materials/x/theirs.vmt", nowhere]),
        "check": (0, [("unknown", "x/theirs"), ("unknown", "x/nowhere")], True),
        "said": found["said"]}
    assert len(found["said"]) == 1 and found["said"][0].startswith("unknown: ")


def test_content_alone_with_a_base_vpk_and_a_base_list(tmp_path):
    """--content with a --vpk (the base game's, as CompilePal's -excludevpk): the content is
    packed, the VPK's files are left to the base game, the rest is unknown unless --base lists
    it (then left to the base game too)."""
    from srctools.vpk import VPK

    content = tmp_path / "assets"
    (content / "materials" / "x").mkdir(parents=True)
    (content / "materials" / "x" / "mine.vmt").write_text('"UnlitGeneric" {}\n')
    with VPK(str(tmp_path / "base_dir.vpk"), mode="w", version=2) as vpk:
        vpk.add_file("materials/x/theirs.vmt", b'"UnlitGeneric" {}\n')
    src = decal_map(tmp_path, "x/mine", "x/theirs", "x/listed", "x/nowhere")
    listing = tmp_path / "base.txt"
    listing.write_text("materials/x/listed.vmt\n")
    code, report = run("pak", "autopack", src, "--content", content, "--vpk",
                       tmp_path / "base.vpk", "--base", listing, "-o", tmp_path / "out.bsp")
    res = report["result"]
    assert code == 0 and res["gameinfo"] is None
    assert res["base_game"] == [str(tmp_path / "base_dir.vpk")]
    assert [r["path"] for r in res["packed"]] == ["materials/x/mine.vmt"]
    assert {r["path"] for r in res["left_to_base"]} == {"materials/x/theirs.vmt",
                                                        "materials/x/listed.vmt"}
    assert [r["path"] for r in res["unknown"] if "/x/" in r["path"]] == [
        "materials/x/nowhere.vmt"]
    with Bsp.open(tmp_path / "out.bsp") as bsp:
        assert bsp.pakfile.read("materials/x/mine.vmt") == b'"UnlitGeneric" {}\n'


def test_gamefs_without_a_gameinfo(tmp_path):
    """GameFS.load(None): the content folders (the mod's, a pak01_dir.vpk in one included)
    then the --vpk files (the base game's); files found nowhere are unknown."""
    from srctools.vpk import VPK

    first, second = tmp_path / "a", tmp_path / "b"
    for root in (first, second):
        (root / "materials").mkdir(parents=True)
        (root / "materials" / "same.vmt").write_bytes(root.name.encode())
    with VPK(str(second / "pak01_dir.vpk"), mode="w", version=2) as vpk:
        vpk.add_file("models/in_pak.mdl", b"m")
    with VPK(str(tmp_path / "other_dir.vpk"), mode="w", version=2) as vpk:
        vpk.add_file("models/base.mdl", b"b")
    fs = GameFS.load(None, content=[first, second], vpks=[tmp_path / "other.vpk"])
    assert [(sp.kind, sp.path, sp.base, sp.source) for sp in fs.search_paths] == [
        ("folder", str(first), False, "--content"),
        ("vpk", str(second / "pak01_dir.vpk"), False, "pak01_dir.vpk of --content"),
        ("folder", str(second), False, "--content"),
        ("vpk", str(tmp_path / "other_dir.vpk"), True, "--vpk")]
    assert (fs.game_dir, fs.gameinfo, fs.problems) == (None, None, [])
    assert fs.read("materials/same.vmt") == b"a"
    assert not fs.locate("models/in_pak.mdl").base and fs.locate("models/base.mdl").base
    assert "no gameinfo" in fs.unjudged


def test_a_content_folders_pak01_is_the_mods_beside_a_game(tmp_path):
    """With --game too, a --content folder's pak01_dir.vpk is the mod's, like the folder."""
    from srctools.vpk import VPK

    game = tmp_path / "mod"
    game.mkdir()
    (game / "gameinfo.txt").write_text(GAMEINFO.replace("\t\t\tgame |all_source_engine_paths|"
                                                        "base\n", ""))
    extra = tmp_path / "extra"
    extra.mkdir()
    with VPK(str(extra / "pak01_dir.vpk"), mode="w", version=2) as vpk:
        vpk.add_file("models/x.mdl", b"m")
    fs = GameFS.load(game, content=[extra])
    assert fs.locate("models/x.mdl").base is False and fs.unjudged is None


# -- typed paths ------------------------------------------------------------------------------
# (id, options, what the one line says): {t} is the folder `typed` fills (a game, a content
# folder, a VPK, a text list, an empty folder and the map), {s} the separator of paths bspedit
# joins
MISTAKES = [
    ("no-game", [], "give the game: --game GAMEDIR"),
    ("vpk-alone", ["--vpk", "{t}/vpk/base_dir.vpk"], "give the game"),
    ("game-absent", ["--game", "{t}/nowhere"], "--game {t}/nowhere: no such folder"),
    ("game-empty-path", ["--game", ""], "--game: an empty path"),
    ("game-a-map", ["--game", "{t}/tiny.bsp"], "a file; give the mod's folder"),
    ("game-a-content-folder", ["--game", "{t}/assets"], "is --content {t}/assets"),
    ("game-above-the-mod", ["--game", "{t}"], "--game {t}{s}game has one"),
    ("game-below-the-mod", ["--game", "{t}/game/maps"], "--game {t}{s}game has one"),
    ("game-no-gameinfo", ["--game", "{t}/empty"], "no gameinfo.txt in it"),
    ("content-absent", ["--content", "{t}/nowhere"], "--content {t}/nowhere: no such folder"),
    ("content-empty-path", ["--content", ""], "--content: an empty path"),
    ("content-a-map", ["--content", "{t}/tiny.bsp"], "a file, not a folder"),
    ("content-a-gameinfo", ["--content", "{t}/game/gameinfo.txt"], "(a gameinfo: --game {t}/game)"),
    ("content-its-materials", ["--content", "{t}/assets/materials"], "give the folder above it"),
    ("content-no-assets", ["--content", "{t}/empty"], "holds no materials/"),
    ("content-above-the-root", ["--game", "{t}/game", "--content", "{t}"],
     "--content {t}{s}assets does"),
    ("vpk-absent", ["--game", "{t}/game", "--vpk", "{t}/nowhere_dir.vpk"], "no such VPK"),
    ("vpk-a-map", ["--game", "{t}/game", "--vpk", "{t}/tiny.bsp"], "a map, not a VPK"),
    ("vpk-a-text", ["--game", "{t}/game", "--vpk", "{t}/list.txt"], "not a VPK"),
    ("vpk-an-archive", ["--game", "{t}/game", "--vpk", "{t}/vpk/base_000.vpk"],
     "give the _dir.vpk"),
    ("vpk-a-folder", ["--game", "{t}/game", "--vpk", "{t}/assets"], "--content {t}/assets"),
    ("vpk-empty-path", ["--game", "{t}/game", "--vpk", ""], "--vpk: an empty path"),
]
BASE_MISTAKES = [
    ("base-absent", "{t}/none.txt", "no such list file"),
    ("base-a-vpk", "{t}/vpk/base_dir.vpk", "a VPK, not a list of files"),
    ("base-a-map", "{t}/tiny.bsp", "not a text list of files"),
    ("base-a-folder", "{t}/empty", "a folder, not a file"),
]


@pytest.fixture
def typed(tmp_path):
    from srctools.vpk import VPK

    (tmp_path / "game" / "maps").mkdir(parents=True)
    (tmp_path / "game" / "gameinfo.txt").write_text(GAMEINFO)
    (tmp_path / "assets" / "materials").mkdir(parents=True)
    (tmp_path / "empty").mkdir()
    (tmp_path / "vpk").mkdir()
    with VPK(str(tmp_path / "vpk" / "base_dir.vpk"), mode="w", version=2,
             dir_data_limit=0) as vpk:
        vpk.add_file("materials/x.vmt", b"x")
    (tmp_path / "list.txt").write_text("materials/x.vmt\n")
    shutil.copyfile(DATA / "tiny.bsp", tmp_path / "tiny.bsp")
    return tmp_path


def refused(argv: list[str], message: str, tmp: Path, out: Path | None = None) -> None:
    """Exit 2, one line on stderr holding `message`, the map unchanged, `out` not written."""
    digest = hashlib.sha256((tmp / "tiny.bsp").read_bytes()).hexdigest()
    listing = sorted(tmp.rglob("*"))
    report = invoke(argv, capture=True)
    assert report.code == 2, (argv, report.stderr)
    lines = report.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], (argv, lines)
    assert hashlib.sha256((tmp / "tiny.bsp").read_bytes()).hexdigest() == digest
    assert sorted(tmp.rglob("*")) == listing and (out is None or not out.exists())


@pytest.mark.parametrize("verb", ["deps", "autopack", "audit"])
@pytest.mark.parametrize(("options", "message"), [pytest.param(o, m, id=i)
                                                  for i, o, m in MISTAKES])
def test_typed_path_mistakes_are_bad_input(verb, options, message, typed):
    out = typed / "out.bsp"
    target = ["-o", str(out)] if verb == "autopack" else []
    refused(["pak", verb, str(typed / "tiny.bsp"), *(o.format(t=typed) for o in options),
             *target], message.format(t=typed, s=os.sep), typed, out)


@pytest.mark.parametrize(("base", "message"), [pytest.param(b, m, id=i)
                                               for i, b, m in BASE_MISTAKES])
def test_autopack_base_list_mistakes(base, message, typed):
    out = typed / "out.bsp"
    refused(["pak", "autopack", str(typed / "tiny.bsp"), "--game", str(typed / "game"),
             "--base", base.format(t=typed), "-o", str(out)], message, typed, out)
    refused(["pak", "autopack", str(typed / "tiny.bsp"), "--game", str(typed / "game"),
             "--base", base.format(t=typed), "--in-place"], message, typed)


@pytest.mark.parametrize("verb", ["deps", "autopack", "audit"])
def test_typed_paths_that_are_right_run(verb, typed):
    """A gameinfo named itself, `foo.vpk` for `foo_dir.vpk` (as a gameinfo line), a content
    root, a text list: exit 0."""
    target = ["--base", str(typed / "list.txt"), "-o", str(typed / "out.bsp")] \
        if verb == "autopack" else []
    ok = invoke(["pak", verb, str(typed / "tiny.bsp"), "--game",
                 str(typed / "game" / "gameinfo.txt"), "--vpk", str(typed / "vpk" / "base.vpk"),
                 "--content", str(typed / "assets"), *target], capture=True)
    assert ok.code == 0, ok.stderr


def test_ent_check_typed_paths(typed):
    tiny = str(typed / "tiny.bsp")
    for options, message in [(["--game", str(typed / "nowhere")], "no such folder"),
                             (["--game", str(typed / "assets")],
                              "checked through a gameinfo's search paths"),
                             (["--game", str(typed)], "has one"),
                             (["--fgd", str(typed / "none.fgd")], "no such FGD file"),
                             (["--fgd", str(typed / "empty")], "a folder, not a file")]:
        refused(["ent", "check", tiny, *options], message, typed)
    assert invoke(["ent", "check", tiny, "--game", str(typed / "game")], capture=True).code == 0


def test_a_gameinfo_search_path_this_machine_lacks_stays_non_fatal(typed):
    """The gameinfo's `base` folder is not here: reported, exit 0 (not a typed path)."""
    code, report = run("pak", "deps", typed / "tiny.bsp", "--game", typed / "game")
    assert code == 0 and any("base" in p for p in report["result"]["problems"])
    assert report["result"]["unknown_reason"] == \
        "the base game's search paths are not on this machine"


# -- the real mods: the base games are not on this machine -------------------------------------
@needs_content
@pytest.mark.parametrize("name", params())
def test_real_mods_unknown_not_missing(name):
    """On every content map, with --game: no file is `missing` for want of the base game
    (only unreadable entries of the mod's own VPK are), and ent check reports no asset
    problem: what is neither packed nor in the mod is unknown, said once, each one truly
    absent from the mod and the pakfile."""
    import io
    import zipfile

    mod, file = name.split("/")
    game, path = CONTENT / mod, CONTENT / mod / "maps" / file
    code, report = run("pak", "deps", path, "--game", game, "--strict")
    result = report["result"]
    missing = [r for r in result["files"] if r["location"] == "missing" or not r["readable"]]
    assert all(r["location"] == "vpk" and not r["base"] for r in missing), missing
    assert code == (1 if [r for r in missing if not r["optional"]] else 0)
    unknown = {r["path"] for r in result["files"] if r["location"] == "unknown"}
    assert unknown and result["counts"]["unknown"] == len(unknown)
    assert result["unknown_reason"] == "the base game's search paths are not on this machine"
    on_disk = set(files_of([game]))
    with Bsp.open(path) as bsp:
        packed = {asset_path(n) for n in
                  zipfile.ZipFile(io.BytesIO(bsp.content("PAKFILE"))).namelist()}
    assert not unknown & (on_disk | packed)

    check = invoke(["ent", "check", str(path), "--game", str(game), "--json"], capture=True)
    assets = [f for f in check.result["findings"] if f["kind"] == "asset"]
    assert {f["severity"] for f in assets} <= {"unknown"}
    assert check.result["counts"]["unknown"] == len(assets)
    for finding in assets:
        assert "the base game's search paths are not on this machine" in finding["message"]
        wanted = finding["message"].split(" is neither")[0]
        if "/" in wanted:       # a file (else a sound name no script here defines)
            assert wanted in unknown and wanted not in on_disk | packed
    text = invoke(["ent", "check", str(path), "--game", str(game)], capture=True)
    said = [line for line in text.stdout.splitlines() if line.startswith("unknown")]
    assert len(said) == (1 if assets else 0)
    assert not [line for line in text.stdout.splitlines() if line.startswith("problem")
                and "neither packed" in line]
