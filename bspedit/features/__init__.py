"""Work built on the map and its lumps: verify checks, diff, report rows, sky, strip presets,
stats, lookups across lumps, whole-map compression, new maps from lumps, dump and build."""
