"""Independent oracles: brute-force models written from RULES.md, checked against the engine."""
