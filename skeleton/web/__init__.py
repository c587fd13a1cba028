"""Generic web code below every algorithm: URL parsing, scope and resolution
(:mod:`.urls`), defensive HTML decoding and parsing (:mod:`.dom`) and frame
inlining (:mod:`.frames`). Imports nothing from the rest of ``skeleton``."""
