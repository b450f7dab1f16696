"""bspedit: a lossless BSP map editor (Quake 1/2/3, GoldSrc, Source).

Open a map with `bspedit.bsp.Bsp.open(path)`; an unchanged save is byte-identical.
"""
__version__ = "0.2.0"
