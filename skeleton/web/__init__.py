"""Generic web code below every algorithm: URL parsing, scope and resolution
(:mod:`.urls`), defensive HTML decoding and parsing (:mod:`.dom`), frame
inlining (:mod:`.frames`) and links to files that are no pages (:mod:`.files`). Imports nothing from the rest of ``skeleton``."""
