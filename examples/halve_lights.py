"""Halve the brightness of every light: python halve_lights.py MAP [OUT] (no OUT: in place)."""
import sys

import bspedit

with bspedit.open(sys.argv[1]) as bsp:
    for light in bsp.entities().find(classname="light*", match="glob"):
        if "_light" in light:           # Source, GoldSrc: "red green blue brightness"
            *color, brightness = light["_light"].split()
            light["_light"] = " ".join([*color, f"{float(brightness) / 2:g}"])
        else:                           # Quake 1, 2, 3: "light", 300 when absent
            light["light"] = f"{float(light.get('light', '300')) / 2:g}"
    result = bsp.save(*sys.argv[2:3])
    kept = "changed" if result.checksum_changed else "kept"
    print(f"{result.target}: {result.compared} {kept}")
