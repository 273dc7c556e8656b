"""Files on disk: read only when regular and bounded, written whole.

Every file cpqueens takes is read by :mod:`.reading` (and, for JSON and TOML,
parsed by :mod:`.structured`), so no file hangs a run or exhausts its memory.

Every family that writes a file (instances, trees, reports, campaigns) goes through
:mod:`.writing`, so an interrupted run never leaves half a file behind.

Map: ``reading`` (the one reader of every file: only regular files, never more bytes
than the format can need), ``structured`` (JSON and TOML parsed strictly), ``safexml``
(XML read as untrusted input: no DTD, no entity, no nesting past a bound),
``sqlite_files`` (SQLite files from elsewhere told apart and opened read-only, nothing
changed), ``writing`` (files written all at once, no half-written file left behind),
``transactions`` (SQLite write transactions, whole or not at all), ``globbing``
(glob patterns matched without entering linked folders).
"""
