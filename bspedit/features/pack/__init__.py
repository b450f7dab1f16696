"""What a Source map needs from its game's content: the game's file system (gameinfo.txt,
search paths, VPKs), the references a map makes and the chains they lead down (materials,
models, sounds, particles), and the pakfile verbs built on them (deps, autopack, audit).

Only this package imports srctools (VPK, KeyValues, VMT, MDL and soundscript readers)."""
